// Dropout as tinygrad 0.14 draws it: a uniform number per element from the session's generator
// (rand, which advances it), kept where it is at least p, and the kept values scaled by 1/(1-p).
#include "core/base/error.h"
#include "core/tensor/tensor.h"

namespace tr {

Tensor Tensor::dropout(double p) const {
  if (!(p >= 0 && p <= 1)) fail("value", "dropout's p={} is out of range [0, 1]", p);
  if (p == 0) return *this;
  if (p == 1) return zeros_like();
  const Tensor r = rand(shape(), std::nullopt, DType::Float32, device());
  const Tensor keep = r.ge(scalar_like(r, p)).contiguous();
  const Tensor kept = keep.where(*this, scalar_like(*this, int64_t{0}));
  return kept.div(scalar_like(kept, 1.0 - p));
}

}  // namespace tr
