// A permuting copy (a transpose): a tile of outputs along the innermost dim by a cache line of the
// transposed load along its own, so that each of the load's lines is read once, whole, and the
// expand pass transposes the tile in registers. Where one vector is a whole line (AVX-512) the tile
// is square, a line each way, so that each store writes a whole line and can stream past the cache;
// elsewhere 8 outputs, whose 8 rows of the load share one set of L1 (8 ways) where the rows are a
// power of two apart. On a GPU the threads of a workgroup take neighbouring outputs (the workgroup
// recipe), so their stores are coalesced, and each thread takes 16 outputs along the other dim, which
// its load reads in order.
#include <algorithm>

#include "core/opt/apply_opt.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"

namespace tr {
namespace {

struct Sides {
  int inner = -1, other = -1;
  int64_t line = 0, across = 0;  // outputs along the other side and along the inner one
};

Sides sides(const Kernel& k, const Target& t) {
  Sides s;
  s.inner = last_dim_with(k, DimRole::Global);
  if (s.inner < 0) return s;
  const auto [other, item] = transposed_dim(k, s.inner);
  s.other = other;
  s.line = t.gpu ? 16 : std::min<int64_t>(16, kCacheLine / item);
  s.across = t.float_lanes() * 4 == kCacheLine ? s.line : 8;
  return s;
}

bool applies(const OptPlan& p, const Target& t) {
  if (p.reduces) return false;
  const Sides s = sides(p.kernel, t);
  const std::vector<Dim>& dims = p.kernel.dims;
  return s.other >= 0 && dims[s.inner].size % s.across == 0 && dims[s.inner].size > s.across &&
         dims[s.other].size % s.line == 0 && dims[s.other].size > s.line;
}

void apply(OptPlan& p, const Target& t) {
  const Sides s = sides(p.kernel, t);
  if (!t.gpu) {
    p.kernel = apply_opt(p.kernel, {OptOp::Upcast, s.inner, s.across}, t);
    p.transpose_rows = p.kernel.dims[s.inner].axis;
  }
  p.kernel = apply_opt(p.kernel, {OptOp::Upcast, s.other, s.line}, t);
}

}  // namespace

const Recipe kTranspose{"transpose", applies, apply};

}  // namespace tr
