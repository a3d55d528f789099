#include "viz/stages.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/runtime/device.h"
#include "core/render/render.h"
#include "core/base/value_str.h"
#include "viz/backend_lowering.h"
#include "viz/debug_output.h"
#include "viz/schedule_view.h"
#include "viz/timings.h"

namespace tr {
namespace {

// A symbolic size reads as its Variable, with the largest value the kernel is lowered for.
std::string size_text(const Dim& d) { return d.sym ? fmt::format("{}<={}", render(d.sym), d.size) : std::to_string(d.size); }

std::string full_shape_text(const Kernel& k) {
  std::vector<std::string> sizes;
  for (size_t a = 0; a < k.full_shape.size(); a++) {
    const auto sym = std::find_if(k.dims.begin(), k.dims.end(), [&](const Dim& d) { return d.axis == static_cast<int>(a) && d.sym; });
    sizes.push_back(sym == k.dims.end() ? std::to_string(k.full_shape[a]) : render(sym->sym));
  }
  return fmt::format("({}{})", fmt::join(sizes, ", "), sizes.size() == 1 ? "," : "");
}

std::string buffer_label(const AstNode& n) {
  switch (n.op) {
    case AstOp::Store: return fmt::format("STORE idx={}", n.idx);
    case AstOp::Load: return fmt::format("LOAD idx={}", n.idx);
    case AstOp::Const: return fmt::format("CONST {}", const_str(n.value, n.dtype));
    case AstOp::Arange: return "ARANGE";
    case AstOp::Alu:
    case AstOp::Reduce: break;
  }
  return "";
}

std::string views_text(const AstRef& ast) {
  std::string out = "ShapeTracker views:\n";
  walk(ast, [&](const AstNode& n) {
    if (!n.st) return;
    const std::vector<View>& views = n.st->views();
    for (size_t v = 0; v < views.size(); v++)
      out += fmt::format("  {:<12} view {}: {}\n", v == 0 ? buffer_label(n) : "", v, views[v].str());
  });
  return out;
}

}  // namespace

std::string opts_list(const Kernel& k) {
  std::vector<std::string> opts;
  for (const Opt& o : k.opts) opts.push_back(o.str());
  return opts.empty() ? "none" : fmt::format("{}", fmt::join(opts, ", "));
}

std::vector<StageStop> stage_walk(const std::vector<ScheduleItem>& items) {
  std::vector<StageStop> stops{{Stage::Graph}, {Stage::Schedule}};
  for (size_t i = 0; i < items.size(); i++) {
    if (items[i].kind != ScheduleItem::Kind::Kernel) continue;
    for (const Stage s : {Stage::Ast, Stage::Opts, Stage::Uops, Stage::Source})
      stops.push_back({s, static_cast<int>(i)});
  }
  if (!items.empty()) stops.push_back({Stage::Run});
  return stops;
}

std::string stop_title(const StageStop& s) {
  switch (s.stage) {
    case Stage::Graph: return "the lazy graph";
    case Stage::Schedule: return "the schedule";
    case Stage::Ast: return fmt::format("kernel {}: its AST", s.item);
    case Stage::Opts: return fmt::format("kernel {}: its opts", s.item);
    case Stage::Uops: return fmt::format("kernel {}: its UOps", s.item);
    case Stage::Source: return fmt::format("kernel {}: its source", s.item);
    case Stage::Run: break;
  }
  return "the run";
}

std::string graph_text(const LazyRef& x) { return print_graph(x); }

std::string schedule_text(const std::vector<ScheduleItem>& items) { return print_schedule(items); }

std::string kernel_title(int k, const KernelRecord& r) {
  return fmt::format("kernel {} {} on {} (opts: {})\n", k, r.name, r.device, opts_list(*r.kernel));
}

std::string ast_text(const Kernel& k) { return print_ast(k.ast) + views_text(k.ast); }

std::string opts_text(const Kernel& k) {
  const int ndim = static_cast<int>(k.full_shape.size());
  std::string out = k.first_reduce < ndim ? fmt::format("full shape {}, reduce axes from {}\n",
                                                        full_shape_text(k), k.first_reduce)
                                          : fmt::format("full shape {}, no reduce axes\n", full_shape_text(k));
  if (k.walks_rows_again()) out += fmt::format("walks each row {} times (several reduces over the same rows)\n", k.row_passes);
  out += "dims (AXIS for :opt):\n";
  for (size_t i = 0; i < k.dims.size(); i++) {
    const Dim& d = k.dims[i];
    const std::string_view tc = tc_part_name(d.tc);
    out += fmt::format("  {:>2}  {:<7} size {:<6} axis {} of the full shape{}{}\n", i, dim_role_name(d.role), size_text(d),
                       d.axis, tc.empty() ? "" : ", ", tc);
  }
  return out + fmt::format("opts: {}\n", opts_list(k));
}

std::string uops_text(const UOpProgram& p) {
  // a symbolic axis's size is known at launch: it reads as its size for the Variable times the fixed part
  std::vector<std::string> global;
  for (size_t a = 0; a < 3; a++) {
    const int v = p.dims.global_var[a];
    if (v < 0) {
      global.push_back(std::to_string(p.dims.global[a]));
      continue;
    }
    std::string size = p.dims.global_scale[a] == 1 ? p.vars.at(v) : fmt::format("{}*{}", p.dims.global_scale[a], p.vars.at(v));
    if (p.dims.global_offset[a] != 0) size = fmt::format("({}{:+})", size, p.dims.global_offset[a]);
    global.push_back(p.dims.global[a] == 1 ? size : fmt::format("{}*{}", p.dims.global[a], size));
  }
  return print_uops(p.uops) + fmt::format("launch: global [{}] local [{}]; about {} FLOPs and {} bytes\n",
                                          fmt::join(global, ", "), fmt::join(p.dims.local, ", "), p.flops, p.bytes);
}

namespace {

bool unchanged(const std::vector<PassSnapshot>& passes, size_t pass) {
  if (pass == 0) return false;
  const std::vector<UOp>&now = passes[pass].uops, &before = passes[pass - 1].uops;
  return std::equal(now.begin(), now.end(), before.begin(), before.end(), same_uop);
}

}  // namespace

std::string pass_heading(const std::vector<PassSnapshot>& passes, size_t pass) {
  return fmt::format("── after pass {} of {}, {}: {} uops{} ──\n", pass + 1, passes.size(), passes[pass].pass,
                     passes[pass].uops.size(), unchanged(passes, pass) ? ", unchanged" : "");
}

// A pass that rewrote nothing is named without its listing: the reader has just seen it.
std::string passes_text(const std::vector<PassSnapshot>& passes) {
  std::string out;
  for (size_t i = 0; i < passes.size(); i++)
    out += pass_heading(passes, i) + (unchanged(passes, i) ? "" : print_uops(passes[i].uops));
  return out;
}

std::vector<std::string> shown_backends(const KernelRecord& r, const std::vector<std::string>& render) {
  if (!render.empty()) return render;
  return {device(r.device).backend()};
}

SourceLines backend_source_lines(const KernelRecord& r, std::string_view backend) {
  BackendLowering lowering = lowering_for_backend(r, backend);
  SourceLines out{.source = {}, .program = std::move(lowering.program), .own = lowering.note.empty()};
  if (!out.own) out.source.append(std::string(line_comment(backend_info(backend).syntax)) + lowering.note + "\n");
  out.source.append(lowering.source);
  if (!out.source.text.empty() && out.source.text.back() != '\n') out.source.append("\n");
  return out;
}

std::string backend_source(const KernelRecord& r, std::string_view backend) { return backend_source_lines(r, backend).source.text; }

namespace {

// "4-6,9": ascending numbers, runs joined.
std::string number_runs(const std::vector<int>& n) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < n.size();) {
    size_t j = i;
    while (j + 1 < n.size() && n[j + 1] == n[j] + 1) j++;
    parts.push_back(j == i ? std::to_string(n[i]) : fmt::format("{}-{}", n[i], n[j]));
    i = j + 1;
  }
  return fmt::format("{}", fmt::join(parts, ","));
}

}  // namespace

std::string uop_margin_text(const RenderedSource& s) {
  std::vector<std::string> margins;
  size_t width = 4;
  for (const std::vector<int>& uops : s.line_uops) {
    margins.push_back(number_runs(uops));
    width = std::max(width, margins.back().size());
  }
  std::string out = fmt::format("{:>{}} │\n", "uops", width);
  size_t at = 0;
  for (const std::string& m : margins) {
    const size_t end = s.text.find('\n', at);
    out += fmt::format("{:>{}} │ {}\n", m, width, std::string_view(s.text).substr(at, end - at));
    at = end == std::string::npos ? s.text.size() : end + 1;
  }
  return out;
}

std::string source_text(const KernelRecord& r, const std::vector<std::string>& backends) {
  std::string out;
  for (const std::string& b : backends) out += fmt::format("// {}\n{}", b, backend_source(r, b));
  return out;
}

std::string run_text(const std::vector<RunRecord>& runs) { return timings_table(runs); }

std::string kernel_run_text(const KernelRecord& r) {
  RunRecord run;
  run.kernel = r;
  const RunRates x = rates(run);
  return fmt::format("tm {}  {:.2f} GFLOPS  {:.2f} GB/s  ({} FLOPs, {} bytes)\n", time_str(x.seconds), x.gflops,
                     x.gbs, r.program->flops, r.program->bytes);
}

}  // namespace tr
