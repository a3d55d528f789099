#include "repl/help_text.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/opt/opt_table.h"
#include "repl/convert.h"
#include "repl/help_notes.h"
#include "repl/help_table.h"
#include "repl/suggest.h"

namespace tr::repl {
namespace {

// The topics and the kinds of entry each lists.
struct Listing {
  std::string_view topic;
  std::string_view title;
  std::vector<HelpKind> kinds;
};

const std::vector<Listing>& listings() {
  static const std::vector<Listing> out{
      {"functions", "functions", {HelpKind::Function}},
      {"nn", "nn: tinygrad's layers and optimizers, and the methods of the objects they make",
       {HelpKind::NnFunction, HelpKind::Member}},
      {"methods", "tensor methods and attributes", {HelpKind::Method, HelpKind::Attribute}},
  };
  return out;
}

std::string listing_text(const Listing& l) {
  std::string out = fmt::format("{} (:help NAME, or NAME? and help(NAME), shows one with an example):\n", l.title);
  for (const HelpGroup& g : help_groups()) {
    if (std::find(l.kinds.begin(), l.kinds.end(), g.kind) == l.kinds.end()) continue;
    out += fmt::format("  {}\n", g.title);
    for (const HelpEntry& e : g.entries) out += fmt::format("    {}  {}\n", e.signature, first_sentence(e.about));
  }
  return out;
}

std::string commands_text() {
  std::string out = "meta commands (K: a kernel's index in :kernels, default the last kernel):\n";
  for (const HelpGroup& g : help_groups())
    if (g.kind == HelpKind::Command)
      for (const HelpEntry& e : g.entries) out += fmt::format("  {:<24} {}\n", e.signature, first_sentence(e.about));
  return out;
}

std::string dtypes_text() {
  std::string out = fmt::format(
      "dtypes: {}\n"
      "  a bare name (float32) or dtypes.NAME; default int is int32, default float is float32.\n"
      "  promotion follows tinygrad: bool < int8/uint8 < ... < int64 < float16 < float32 < float64;\n"
      "  int / int is float, // is floor division, comparisons give bool, sum of bool is int32.\n",
      fmt::join(dtype_names(), " "));
  for (const HelpGroup& g : help_groups())
    if (g.kind == HelpKind::DType)
      for (const HelpEntry& e : g.entries) out += fmt::format("  {:<9} {}\n", e.name, first_sentence(e.about));
  return out;
}

constexpr std::string_view kKeys = R"(keys of the plain REPL:
  Tab            complete names, methods after "x.", functions, dtypes, meta commands, help names after "?"
  Up/Down        history (kept in ~/.tinyrepl_history)   Ctrl-R  search the history
  Ctrl-A/Ctrl-E  start/end of line   Ctrl-W  delete a word   Ctrl-L  clear the screen
  Enter          run; while a bracket is open the next line continues it ("... ")
  Ctrl-D         leave (as :quit)
)";

constexpr std::string_view kDebug = R"(DEBUG levels (--debug N, DEBUG=N, :debug N), as in tinygrad:
  1  "scheduled N kernels in X ms" and the name of each kernel run
  2  one line per kernel or copy: device, name, memory, time, GFLOPS, GB/s; at the end of a script
     "avg: ... GFLOPS ... GB/s   total: N kernels ..."; a line that a @jit replay launched ends with (jit)
  3  + each kernel's AST tree with its ShapeTracker views, its dims with their roles, and the opts applied
  4  + the rendered source (the :render backends, else the device's)
  5  + the UOps listing
  6  + the UOps after each lowering pass, in order (as :uops K all)
A kernel's stages come before its *** line. The notes' words for what these show: :help notes.
)";

constexpr std::string_view kJson = R"(--json (tinyrepl run --json FILE.tg): one JSON object per line on stdout, each with "event",
and "file" and "line" when it comes from a statement:
  print     shape, dtype, data (flat, row-major) and text; "shape": null and "value" for other values;
            "values" (a list of those) when print has several arguments; help() prints its text this way
  schedule  kernels, copies, ms            kernel  name, device, global, local, us, flops, bytes, gflops, gbs, cached, jit
  copy      bytes, from, to, us, jit       assert  ok (and col, message when it failed)
  error     line, col, kind, message       source  kernel, backend, text (--debug 4 and up, per --render backend)
  output    command, text (what a meta command shows)
  summary   kernels, gflops, gbs, ms (at the end)
)";

std::string opt_text(const OptInfo& o) {
  std::vector<std::string_view> takes;
  for (const DimRole r : o.takes) takes.push_back(dim_role_name(r));
  const std::string gives = !o.gives ? "padded, masked"
                            : fmt::format("{} piece {}", o.gives_outer ? "outer" : "inner", dim_role_name(*o.gives));
  const std::string beam = o.gives == DimRole::Thread ? "the cores"
                           : o.beam_amounts.empty()   ? "none"
                                                      : fmt::format("{}", fmt::join(o.beam_amounts, " "));
  std::string out = fmt::format("  {:<7} {} dim -> {}: {}\n          BEAM tries: {}", o.name, fmt::join(takes, " or "),
                                gives, o.help, beam);
  if (o.needs != OptNeeds::Nothing) out += fmt::format("; needs {}", needs_str(o.needs));
  // the table's rules of which opts combine
  const auto rules = [](const std::vector<OptRule>& rs) {
    std::vector<std::string> names;
    for (const OptRule& r : rs) names.push_back(fmt::format("{}{}", kernel_has_name(r.with), r.reduce_dim_only ? " (of a reduce dim)" : ""));
    return fmt::format("{}", fmt::join(names, ", "));
  };
  if (!o.requires_.empty()) out += fmt::format("\n          needs the kernel to have: {}", rules(o.requires_));
  if (!o.conflicts.empty()) out += fmt::format("\n          not after: {}", rules(o.conflicts));
  if (o.rows_again != RowsAgain::Applies)
    out += fmt::format("\n          not in a kernel that walks its rows again{}", o.rows_again == RowsAgain::OutputDimsOnly ? " (but of an output dim)" : "");
  return out + "\n";
}

std::string opts_text() {
  std::string out = "opts (:opt K OP AXIS AMOUNT; :opts K shows the dims that AXIS counts):\n";
  for (const OptInfo& o : opt_table()) out += opt_text(o);
  return out;
}

std::string overview() {
  return commands_text() +
         "\nThe language is Python's expressions over tensors: x = arange(6).reshape(2, 3); print(x.sum(axis=1))\n"
         "Topics: :help commands | functions | methods | nn | dtypes | opts | keys | debug | json | notes.\n"
         "One name, with its signature, what it does and an example: :help NAME, NAME?, ?NAME, help(NAME),\n"
         "x.method? and help(x.method) (x any expression that gives a tensor).\n";
}

// A name answers for an entry when it is the entry's name or, for a dotted one, its last part
// ("Linear" for nn.Linear, "step" for Optimizer.step).
bool answers(std::string_view name, std::string_view entry) {
  if (name == entry) return true;
  const size_t dot = entry.rfind('.');
  return dot != std::string_view::npos && entry.substr(dot + 1) == name;
}

std::string entries_named(std::string_view name) {
  std::string out;
  for (const HelpGroup& g : help_groups()) {
    if (g.kind == HelpKind::Command || g.kind == HelpKind::DType) continue;  // by their own rules, below
    for (const HelpEntry& e : g.entries)
      if (answers(name, e.name)) out += entry_text(g.kind, e);
  }
  if (const HelpEntry* d = find_help(HelpKind::DType, name)) out += entry_text(HelpKind::DType, *d);
  return out;
}

}  // namespace

std::vector<std::string> help_topics() {
  std::vector<std::string> out{"commands", "dtypes", "opts", "keys", "debug", "json", "notes"};
  for (const Listing& l : listings()) out.emplace_back(l.topic);
  for (const HelpGroup& g : help_groups())
    for (const HelpEntry& e : g.entries) out.emplace_back(e.name);
  for (const std::string& n : dtype_names()) out.push_back(n);
  for (const OptInfo& o : opt_table()) out.emplace_back(o.name);
  for (const std::string& t : note_keys()) out.push_back(t);
  return out;
}

std::string help_text(std::string_view topic) {
  if (topic.empty()) return overview();
  if (topic == "commands") return commands_text();
  for (const Listing& l : listings())
    if (topic == l.topic) return listing_text(l);
  if (topic == "dtypes") return dtypes_text();
  if (topic == "opts") return opts_text();
  if (topic == "keys") return std::string(kKeys);
  if (topic == "debug") return std::string(kDebug);
  if (topic == "json") return std::string(kJson);
  if (topic == "notes") return notes_text();
  const std::string_view bare = topic.starts_with(':') ? topic.substr(1) : topic;
  // a name can be a command, a function and a method at once (kernels, realize, where)
  std::string out;
  if (const HelpEntry* c = find_help(HelpKind::Command, bare)) out += entry_text(HelpKind::Command, *c);
  if (!topic.starts_with(':')) {
    if (const std::optional<OptOp> op = parse_opt(topic)) out += opt_text(opt_info(*op));
    out += entries_named(topic);
    out += note_text(topic);
  }
  if (out.empty()) fail("value", "no help on '{}'{}", topic, did_you_mean(topic, help_topics()));
  return out;
}

}  // namespace tr::repl
