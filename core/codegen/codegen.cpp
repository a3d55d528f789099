#include "core/codegen/codegen.h"

#include "core/codegen/lowering.h"

namespace tr {
namespace {

// A pass after loops: where it runs, and what it does to the graph.
struct Pass {
  const char* name;
  bool (*runs)(const Lowering& low, const UGraph& g);
  UGraph (*run)(UGraph g, const Lowering& low);
};

bool always(const Lowering&, const UGraph&) { return true; }

const Pass kPasses[] = {
    {"stage", [](const Lowering& low, const UGraph&) { return low.k.stage_axis >= 0; },
     [](UGraph g, const Lowering& low) { return stage(g, low); }},
    {"tensor_cores", [](const Lowering& low, const UGraph&) { return low.k.tc.has_value(); },
     [](UGraph g, const Lowering& low) { return tensor_cores(g, low); }},
    {"expand", always, [](UGraph g, const Lowering& low) { return expand(g, low); }},
    {"group", always, [](UGraph g, const Lowering& low) { return group(std::move(g), low); }},
    {"bfloat16", [](const Lowering&, const UGraph& g) { return touches_bfloat16(g); },
     [](UGraph g, const Lowering&) { return bfloat16(g); }},
    {"simplify", always, [](UGraph g, const Lowering& low) { return simplify(g, low); }},
};

}  // namespace

UOpProgram codegen(const Kernel& k, const Target& target, const std::string& name, bool keep_passes) {
  UOpProgram p;
  p.name = name;
  Lowering low{k, target};
  const auto snapshot = [&](const char* pass, const UGraph& g) {
    if (keep_passes) p.passes.push_back({pass, linearize(g).uops});
  };
  UGraph g = lower_loops(low);
  snapshot("loops", g);
  for (const Pass& pass : kPasses) {
    if (!pass.runs(low, g)) continue;
    g = pass.run(std::move(g), low);
    snapshot(pass.name, g);
  }
  Linearized listed = linearize(g);
  p.uops = std::move(listed.uops);
  p.ast_rows = std::move(listed.ast_rows);
  p.flops = listed.flops;
  p.dims = low.dims;
  for (const UOp& u : p.uops)
    if (u.kind == UOpKind::DefineGlobal) p.globals.push_back(u.dtype);
    else if (u.kind == UOpKind::DefineVar) p.vars.push_back(u.name);
  return p;
}

LoweredKernel lower_kernel(const Kernel& k, const Target& target, const Renderer& render, const std::string& name) {
  LoweredKernel out{codegen(k, target, name), ""};
  out.source = render(out.program);
  return out;
}

}  // namespace tr
