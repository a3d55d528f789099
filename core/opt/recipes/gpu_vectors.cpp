// A GPU that moves aligned vectors: each thread of an element-wise kernel takes 4 neighbouring
// elements as one vector, when every load reads them in order (or broadcasts them). Not one that walks
// its rows again (a linspace's reduce over a dim of 1 is gone, its arange's walks stay), which no
// UPCAST takes.
#include "core/opt/apply_opt.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"

namespace tr {
namespace {

bool applies(const OptPlan& p, const Target& t) {
  const Kernel& k = p.kernel;
  if (!t.gpu || t.vector_width < 4 || p.reduces || p.rows_whole || !vector_values(k)) return false;
  const int g = last_dim_with(k, DimRole::Global);
  return g >= 0 && k.dims[g].axis == k.first_reduce - 1 && k.dims[g].size % 4 == 0 && k.dims[g].size > 4 &&
         loads_in_order(k, k.dims[g].axis);
}

void apply(OptPlan& p, const Target& t) {
  p.kernel = apply_opt(p.kernel, {OptOp::Upcast, last_dim_with(p.kernel, DimRole::Global), 4}, t);
}

}  // namespace

const Recipe kGpuVectors{"GPU vectors", applies, apply};

}  // namespace tr
