// A CPU reduce along memory (a row sum, a dot product), with nothing upcast yet: a vector's lanes of
// its innermost piece become the lanes of the accumulator (core/codegen/expand.cpp), each lane summing
// its own share of the row from whole vector loads; the unroll recipe then keeps 4 of them in flight.
// A kernel that walks its rows several times (softmax) gets the lanes in every walk, its store over
// the rows included.
#include <algorithm>

#include "core/opt/apply_opt.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"

namespace tr {
namespace {

int64_t vector_lanes(const OptPlan& p, const Target& t) { return std::min<int64_t>(p.lanes, t.vector_width); }

bool applies(const OptPlan& p, const Target& t) {
  const Kernel& k = p.kernel;
  if (!p.reduces || t.gpu || upcast_product(k) != 1 || !vector_values(k)) return false;
  const int64_t lanes = vector_lanes(p, t);
  const int r = last_dim_with(k, DimRole::Reduce);
  return lanes >= 2 && r >= 0 && k.dims[r].axis == static_cast<int>(k.full_shape.size()) - 1 && k.dims[r].size % lanes == 0 &&
         k.dims[r].size > lanes && loads_in_order(k, k.dims[r].axis);
}

void apply(OptPlan& p, const Target& t) {
  p.kernel = apply_opt(p.kernel, {OptOp::Unroll, last_dim_with(p.kernel, DimRole::Reduce), vector_lanes(p, t)}, t);
}

}  // namespace

const Recipe kRowLanes{"row lanes", applies, apply};

}  // namespace tr
