// :kernels :ast :uops :src :asm :time :explain :graph :trace — views of the schedule and the session.
#include <fmt/format.h>

#include "core/base/context.h"
#include "core/kernel/ast.h"
#include "core/render/render.h"
#include "core/schedule/schedule.h"
#include "repl/app/files.h"
#include "repl/app/history_text.h"
#include "repl/app/meta_commands.h"
#include "repl/app/settings_input.h"
#include "viz/asm_view.h"
#include "viz/debug_output.h"
#include "viz/timings.h"
#include "viz/graph_dot.h"
#include "viz/schedule_view.h"
#include "viz/stages.h"
#include "viz/trace.h"

namespace tr::repl::meta {
namespace {

// The kernel K names (argument i), or the last kernel when the command has no argument i.
int kernel_arg(Host& h, const MetaCall& c, size_t i) {
  return c.checked(i, [&] {
    return h.schedules().kernel_index(i < c.size() ? std::optional<std::string>(c.arg(i)) : std::nullopt);
  });
}

// `:src [K] [BACKEND]`, `:asm [K] [BACKEND]`: kernel K (default: the last) and the backend named.
// K and BACKEND from the first n words of :src or :asm (K, BACKEND, K BACKEND or neither).
std::pair<int, std::optional<std::string>> kernel_and_backend(Host& h, const MetaCall& c, size_t n) {
  const bool has_k = n == 2 || (n == 1 && is_index(c.arg(0)));
  const int k = kernel_arg(h, c, has_k ? 0 : c.size());
  const size_t b = has_k ? 1 : 0;
  if (b >= n) return {k, std::nullopt};
  const std::string name = lowercase(c.arg(b));
  if (!has_backend(name))
    c.fail(b, "value", "unknown backend '{}' (backends: {})", c.arg(b), fmt::join(tr::backends(), ", "));
  return {k, name};
}

std::string trim(std::string_view s) {
  const size_t b = s.find_first_not_of(' ');
  return b == std::string_view::npos ? "" : std::string(s.substr(b));
}

}  // namespace

Status kernels(Host& h, const MetaCall& c) {
  if (c.size() > 0) {
    const Tensor x = c.tensor(h.session(), 0, c.size());
    const std::vector<ScheduleItem> items = create_schedule({base_of(x.node())});
    h.show(c.name(), schedule_text(items));
    h.schedules().plan(items);
    return Status::Ok;
  }
  // an older statement's schedule says whose it is
  const StatementSchedule* s = h.schedules().selected();
  const bool older = s && s != &h.schedules().entries().back();
  h.show(c.name(), (older ? statement_heading(*s) : "") + items_text(h.schedules()));
  return Status::Ok;
}

Status ast(Host& h, const MetaCall& c) {
  c.expect(0, 2);
  // :ast, :ast K, :ast lazyop, :ast K lazyop
  const bool lazyop = c.size() > 0 && c.arg(c.size() - 1) == "lazyop";
  if (c.size() == 2 && !lazyop) c.fail(1, "command", "usage: :ast [K] [lazyop]");
  const int k = kernel_arg(h, c, c.size() == 2 || (c.size() == 1 && !lazyop) ? 0 : c.size());
  const KernelRecord& r = h.schedules().kernel(k);
  if (lazyop) {
    h.show(c.name(), kernel_title(k, r) + print_lazyop(r.kernel->ast));
    return Status::Ok;
  }
  if (h.show_view({.stage = Stage::Ast, .kernel = k})) return Status::Ok;
  h.show(c.name(), kernel_title(k, r) + ast_text(*r.kernel));
  return Status::Ok;
}

Status uops(Host& h, const MetaCall& c) {
  c.expect(0, 2);
  // :uops, :uops K, :uops all, :uops K all
  const bool all = c.size() > 0 && c.arg(c.size() - 1) == "all";
  if (c.size() == 2 && !all) c.fail(1, "command", "usage: :uops [K] [all]");
  const int k = kernel_arg(h, c, c.size() == 2 || (c.size() == 1 && !all) ? 0 : c.size());
  const KernelRecord& r = h.schedules().kernel(k);
  if (h.show_view({.stage = Stage::Uops, .kernel = k})) return Status::Ok;
  h.show(c.name(), kernel_title(k, r) + (all ? passes_text(lowering_passes(r)) : uops_text(*r.program)));
  return Status::Ok;
}

Status src(Host& h, const MetaCall& c) {
  c.expect(0, 3);
  // :src, :src K, :src BACKEND, :src K BACKEND, each with a last word uops
  const bool margin = c.size() > 0 && c.arg(c.size() - 1) == "uops";
  const size_t n = margin ? c.size() - 1 : c.size();
  if (n > 2) c.fail(2, "command", "usage: :src [K] [BACKEND] [uops]");
  const auto [k, backend] = kernel_and_backend(h, c, n);
  const KernelRecord& r = h.schedules().kernel(k);
  const std::vector<std::string> backends = backend ? std::vector{*backend} : shown_backends(r, settings().render);
  if (margin) {
    // the numbers index :uops K's listing, or the listing of the kernel as that backend lowered it again
    std::string out = kernel_title(k, r);
    for (const std::string& b : backends) {
      const SourceLines s = backend_source_lines(r, b);
      out += fmt::format("// {}\n{}", b, uop_margin_text(s.source));
      if (!s.own) out += fmt::format("its UOps as lowered for {}:\n{}", b, uops_text(s.program));
    }
    h.show(c.name(), out);
    return Status::Ok;
  }
  if (h.show_view({.stage = Stage::Source, .kernel = k, .backend = backend.value_or("")})) return Status::Ok;
  h.show(c.name(), kernel_title(k, r) + source_text(r, backends));
  return Status::Ok;
}

Status assembly(Host& h, const MetaCall& c) {
  c.expect(0, 2);
  const auto [k, backend] = kernel_and_backend(h, c, c.size());
  const KernelRecord& r = h.schedules().kernel(k);
  if (h.show_view({.stage = Stage::Source, .kernel = k, .backend = backend.value_or(""), .machine_code = true}))
    return Status::Ok;
  h.show(c.name(), kernel_title(k, r) + asm_text(r, backend.value_or(ran_backend(r))));
  return Status::Ok;
}

// `:time K N`: kernel K's program again, N times on zeroed buffers of its sizes.
Status time(Host& h, const MetaCall& c) {
  c.expect(0, 2);
  if (c.size() == 0 || (c.size() == 1 && c.arg(0) == "all")) {
    const StatementSchedule* selected = h.schedules().selected();
    h.show(c.name(), run_text(c.size() == 1 ? h.session_runs() : selected ? selected->runs() : std::vector<RunRecord>{}));
    return Status::Ok;
  }
  if (!is_index(c.arg(0))) c.fail(0, "command", "usage: :time [all | K [N]]");
  const int k = kernel_arg(h, c, 0);
  const int n = c.size() == 2 ? c.checked(1, [&] { return bounded_int(c.arg(1), 1, kMaxRepeat, "the number of runs"); })
                              : 10;
  KernelRecord r = h.schedules().kernel(k);
  r.repeats = time_again(r, n);
  const Spread s = *spread(r.repeats);
  auto shown = [](double seconds) { return trim(time_str(seconds)); };
  h.show(c.name(), kernel_title(k, r) + fmt::format("{} runs on zeroed buffers: min {}, median {} (its first run: {})\n",
                                                    s.runs, shown(s.min), shown(s.median),
                                                    r.seconds > 0 ? shown(r.seconds) : "none yet"));
  return Status::Ok;
}

Status explain(Host& h, const MetaCall& c) {
  const Tensor x = c.tensor(h.session(), 0, c.size());
  h.show(c.name(), tr::explain(x.node()));
  return Status::Ok;
}

Status graph(Host& h, const MetaCall& c) {
  const bool to_file = c.size() >= 2 && c.arg(c.size() - 1).ends_with(".dot");
  const size_t last = to_file ? c.size() - 1 : c.size();
  const Tensor x = c.tensor(h.session(), 0, last);
  const std::string dot = graph_dot(x.node());
  if (!to_file) {
    h.show(c.name(), dot);
    return Status::Ok;
  }
  c.checked(last, [&] { write_text_file(c.arg(last), dot); });
  h.show(c.name(), fmt::format("wrote {} (render it with: dot -Tsvg {} -o graph.svg)\n", c.arg(last), c.arg(last)));
  return Status::Ok;
}

Status trace(Host& h, const MetaCall& c) {
  c.expect(1, 1);
  const std::vector<RunRecord> runs = h.session_runs();
  c.checked(0, [&] { write_text_file(c.arg(0), chrome_trace(runs)); });
  h.show(c.name(), fmt::format("wrote {}: {} kernels and copies (open it in ui.perfetto.dev or chrome://tracing)\n",
                               c.arg(0), runs.size()));
  return Status::Ok;
}

}  // namespace tr::repl::meta
