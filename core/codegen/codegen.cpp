#include "core/codegen/codegen.h"

#include "core/codegen/lowering.h"

namespace tr {

UOpProgram codegen(const Kernel& k, const Target& target, const std::string& name) {
  UOpProgram p;
  p.name = name;
  Lowering low{k, target};
  // each pass's graph is shown as the linearize pass lists it; the last listing is the program
  Linearized listed;
  const auto snapshot = [&](const char* pass, const UGraph& g) {
    listed = linearize(g);
    p.passes.push_back({pass, listed.uops});
  };
  UGraph g = lower_loops(low);
  snapshot("loops", g);
  g = expand(g, low);
  snapshot("expand", g);
  g = group(g, low);
  snapshot("group", g);
  snapshot("simplify", simplify(g));
  p.uops = std::move(listed.uops);
  p.flops = listed.flops;
  p.dims = low.dims;
  for (const UOp& u : p.uops)
    if (u.kind == UOpKind::DefineGlobal) p.globals.push_back(u.dtype);
  return p;
}

}  // namespace tr
