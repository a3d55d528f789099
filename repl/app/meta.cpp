#include "repl/app/meta.h"

#include <fmt/format.h>

#include "repl/app/meta_commands.h"
#include "repl/suggest.h"

namespace tr::repl {

const std::vector<MetaCommand>& meta_commands() {
  static const std::vector<MetaCommand> table{
      {"help", ":help [TOPIC]", "commands, functions, methods, dtypes, keys, debug, json; or one name", meta::help},
      {"quit", ":quit", "leave (Ctrl-D too); the history is saved to ~/.tinyrepl_history", meta::quit},
      {"vars", ":vars", "the names with shape, dtype, device and whether realized", meta::vars},
      {"device", ":device [NAME[:N] | load PATH]", "list the devices and whether each opens, set the default device (CPU:1 a second CPU), or load a device plug-in", meta::device},
      {"render", ":render [LIST|none]", "backends whose source is shown, e.g. c,opencl,metal,cuda; none: the device's own",
       meta::render},
      {"debug", ":debug [N]", "the DEBUG level, 0..6 (:help debug)", meta::debug},
      {"noopt", ":noopt [on|off]", "on: apply no kernel optimisations; off: the default heuristic", meta::noopt},
      {"beam", ":beam [N]", "search kernel optimisations keeping the N fastest; 0: the default heuristic",
       meta::beam},
      {"kernels", ":kernels [x]", "the last schedule (or x's): each kernel, its buffers, and why it ends there",
       meta::kernels},
      {"ast", ":ast [K]", "the AST of kernel K of the last schedule (default: its last kernel)", meta::ast},
      {"uops", ":uops [K] [all]", "the UOps of kernel K; with all, the UOps after each lowering pass", meta::uops},
      {"src", ":src [K] [BACKEND]", "kernel K's source for BACKEND (default: the :render list or the device's)",
       meta::src},
      {"repeat", ":repeat [N]", "run every kernel N more times after its first run: min and median in :time", meta::repeat},
      {"time", ":time [all | K [N]]",
       "time, GFLOPS and GB/s of each kernel and copy of the last realize (all: the session); K N: kernel K run N "
       "more times (default 10), min and median",
       meta::time},
      {"explain", ":explain x", "the fusion story of x: its graph, what fuses into each kernel, and why", meta::explain},
      {"step", ":step x", "walk through x's stages: graph, schedule, AST, opts, UOps, source, run", meta::step},
      {"opt", ":opt K OP AXIS AMOUNT", "apply an opt (:help opts) to kernel K's dim AXIS by hand; :opt K none clears",
       meta::opt},
      {"opts", ":opts [K]", "the opts applied to kernel K, and its dims", meta::opts},
      {"diff", ":diff [K] [A [B]]",
       "two versions of kernel K's source as a unified diff with their times: the last :opt's change, now against "
       "A, or A against B (now, ran, before, default, noopt, beam[=N] or a backend)",
       meta::diff},
      {"history", ":history [N]",
       "the kept statements' schedules; N (-1 the newest) selects the one :kernels, :ast, :src, :time, :opt, :diff see",
       meta::history},
      {"jit", ":jit", "the @jit functions: the kernels each captured and how often they replayed", meta::jit},
      {"graph", ":graph x [FILE.dot]", "x's lazy graph as Graphviz DOT, shown or written to FILE.dot", meta::graph},
      {"trace", ":trace FILE.json", "write the session's profile as a Chrome/Perfetto trace", meta::trace},
      {"run", ":run FILE.tg", "run a script in this session", meta::run},
      {"save", ":save FILE.tg", "write the session's successful statements to a script", meta::save},
      {"reset", ":reset", "forget every name", meta::reset},
  };
  return table;
}

const MetaCommand* find_meta_command(std::string_view name) {
  for (const MetaCommand& c : meta_commands())
    if (c.name == name) return &c;
  return nullptr;
}

Status run_meta(Host& host, const Meta& meta, Span at) {
  const MetaCommand* command = find_meta_command(meta.name);
  if (!command) {
    std::vector<std::string> names;
    for (const MetaCommand& c : meta_commands()) names.push_back(fmt::format(":{}", c.name));
    const Span name_span{at.line, at.col, static_cast<int>(meta.name.size()) + 1};
    fail_at(name_span, "command", "unknown command ':{}'{} (:help lists the commands)", meta.name,
            did_you_mean(":" + meta.name, names));
  }
  return command->run(host, MetaCall(meta, at, command->usage));
}

}  // namespace tr::repl
