#include "core/codegen/codegen.h"

#include "core/codegen/lowering.h"

namespace tr {

UOpProgram codegen(const Kernel& k, const Target& target, const std::string& name, bool keep_passes) {
  UOpProgram p;
  p.name = name;
  Lowering low{k, target};
  const auto snapshot = [&](const char* pass, const UGraph& g) {
    if (keep_passes) p.passes.push_back({pass, linearize(g).uops});
  };
  UGraph g = lower_loops(low);
  snapshot("loops", g);
  if (k.stage_axis >= 0) {
    g = stage(g, low);
    snapshot("stage", g);
  }
  if (k.tc) {
    g = tensor_cores(g, low);
    snapshot("tensor_cores", g);
  }
  g = expand(g, low);
  snapshot("expand", g);
  g = group(std::move(g), low);
  snapshot("group", g);
  if (touches_bfloat16(g)) {
    g = bfloat16(g);
    snapshot("bfloat16", g);
  }
  g = simplify(g, low);
  snapshot("simplify", g);
  Linearized listed = linearize(g);
  p.uops = std::move(listed.uops);
  p.flops = listed.flops;
  p.dims = low.dims;
  for (const UOp& u : p.uops)
    if (u.kind == UOpKind::DefineGlobal) p.globals.push_back(u.dtype);
    else if (u.kind == UOpKind::DefineVar) p.vars.push_back(u.name);
  return p;
}

}  // namespace tr
