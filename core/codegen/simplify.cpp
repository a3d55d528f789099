// The simplify pass (after group and bfloat16): the rewrite rules of rules.cpp, and those the target adds,
// over the whole graph, each node once, its sources first, so that what expanding and grouping left (index
// arithmetic on constants, x*1, x+0) folds away.
#include "core/codegen/lowering.h"
#include "core/codegen/rules.h"

namespace tr {

UGraph simplify(const UGraph& g, const Lowering& low) {
  const std::vector<Rule>& rules = rules_for(low.target);
  return rewrite(g, [&](UGraph& out, int, const UOp& moved) { return simplify_top(out, out.add(moved), rules); });
}

}  // namespace tr
