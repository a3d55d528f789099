// A CPU column reduce (the reduce walks down rows, the innermost output dim runs along memory): each
// step of the reduce reads neighbouring outputs' elements as vectors, one register of the target's
// lanes and then 8 of them (else 4), so that it uses whole cache lines instead of walking down each
// column alone. 8 accumulators leave half of AVX2's 16 registers free.
#include "core/opt/apply_opt.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"

namespace tr {
namespace {

bool applies(const OptPlan& p, const Target& t) {
  const Kernel& k = p.kernel;
  if (!p.reduces || t.gpu || p.rows_whole || upcast_product(k) != 1) return false;
  const int g = last_dim_with(k, DimRole::Global), r = last_dim_with(k, DimRole::Reduce);
  return g >= 0 && r >= 0 && k.dims[g].axis == k.first_reduce - 1 && k.dims[g].size % p.lanes == 0 &&
         k.dims[g].size > p.lanes && loads_in_order(k, k.dims[g].axis) && !loads_in_order(k, k.dims[r].axis);
}

void apply(OptPlan& p, const Target& t) {
  const int g = last_dim_with(p.kernel, DimRole::Global);
  p.kernel = apply_opt(p.kernel, {OptOp::Upcast, g, p.lanes}, t);
  p.column_reduce = true;
  for (const int64_t vectors : {8, 4})
    if (p.kernel.dims[g].size % vectors == 0 && p.kernel.dims[g].size > vectors) {
      p.kernel = apply_opt(p.kernel, {OptOp::Upcast, g, vectors}, t);
      return;
    }
}

}  // namespace

const Recipe kColumnReduce{"column reduce", applies, apply};

}  // namespace tr
