// A reduce dim unrolled: wholly when it is tiny, else by 4. Not a staged one (STAGE unrolled it) and
// not past 64 copies of the body.
#include "core/opt/apply_opt.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"

namespace tr {
namespace {

bool applies(const OptPlan& p, const Target&) {
  return last_dim_with(p.kernel, DimRole::Reduce) >= 0 && !p.rows_whole && p.kernel.stage_axis < 0 && upcast_product(p.kernel) < 64;
}

void apply(OptPlan& p, const Target& t) {
  const int r = last_dim_with(p.kernel, DimRole::Reduce);
  const int64_t n = p.kernel.dims[r].size;
  if (n <= 8 && n > 1) p.kernel = apply_opt(p.kernel, {OptOp::Unroll, r, n}, t);
  else if (n % 4 == 0) p.kernel = apply_opt(p.kernel, {OptOp::Unroll, r, 4}, t);
}

}  // namespace

const Recipe kUnroll{"unroll", applies, apply};

}  // namespace tr
