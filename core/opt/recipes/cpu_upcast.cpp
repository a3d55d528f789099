// The innermost output dims of a CPU kernel upcast into registers, up to one vector register's lanes:
// small ones wholly, larger ones by what the register still holds where that divides them, else by 4.
// Not on a GPU, where neighbouring threads reading neighbouring elements is what makes loads fast.
#include "core/opt/apply_opt.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"

namespace tr {
namespace {

bool applies(const OptPlan& p, const Target& t) { return !t.gpu && !p.rows_whole; }

void apply(OptPlan& p, const Target& t) {
  Kernel& out = p.kernel;
  for (int pass = 0; pass < 2 && upcast_product(out) < p.lanes; pass++) {
    const int g = last_dim_with(out, DimRole::Global);
    if (g < 0) return;
    const int64_t n = out.dims[g].size, room = p.lanes / upcast_product(out);
    const int64_t amt = n <= 4 ? n : n % room == 0 && n > room ? room : (n % 4 == 0 ? 4 : 1);
    if (amt < 2 || upcast_product(out) * amt > p.lanes) return;
    out = apply_opt(out, {OptOp::Upcast, g, amt}, t);
  }
}

}  // namespace

const Recipe kCpuUpcast{"CPU upcast", applies, apply};

}  // namespace tr
