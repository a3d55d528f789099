// The outermost output dim split over a CPU's cores, where there is enough work to pay for threads;
// where no output dim is left (a full sum), the outermost reduce dim, each core reducing one block and
// the cores combining their partial results at the end, so that a long reduce is one kernel.
#include <algorithm>

#include "core/opt/apply_opt.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"

namespace tr {
namespace {

int split_dim(const OptPlan& p, const Target& t) {
  const Kernel& k = p.kernel;
  const bool outputs = std::any_of(k.dims.begin(), k.dims.end(), [](const Dim& d) { return d.role == DimRole::Global; });
  if (outputs) return first_dim_with(k, DimRole::Global);
  return p.rows_whole || !t.cores_combine ? -1 : first_dim_with(k, DimRole::Reduce);
}

bool applies(const OptPlan& p, const Target& t) {
  const int d = p.threads ? split_dim(p, t) : -1;
  return d >= 0 && largest_divisor_upto(p.kernel.dims[d].size, t.cores) >= 2;
}

void apply(OptPlan& p, const Target& t) {
  const int d = split_dim(p, t);
  p.kernel = apply_opt(p.kernel, {OptOp::Thread, d, largest_divisor_upto(p.kernel.dims[d].size, t.cores)}, t);
}

}  // namespace

const Recipe kCores{"cores", applies, apply};

}  // namespace tr
