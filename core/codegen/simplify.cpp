// The fourth pass: the rewrite rules of rules.cpp over the whole graph, each node once, its sources
// first, so that what expanding and grouping left (index arithmetic on constants, x*1, x+0) folds away.
#include "core/codegen/lowering.h"
#include "core/codegen/rules.h"

namespace tr {

UGraph simplify(const UGraph& g) {
  return rewrite(g, [](UGraph& out, int, const UOp& moved) { return simplify_top(out, out.add(moved), symbolic_rules()); });
}

}  // namespace tr
