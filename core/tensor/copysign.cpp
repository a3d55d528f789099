#include "core/tensor/copysign.h"

namespace tr {

Tensor copysign(const Tensor& x, const Tensor& y) {
  const auto [a, b] = Tensor::broadcasted(x, y);
  const Tensor r = b.reciprocal();
  const Tensor negative = b.lt(Tensor::scalar_like(b, int64_t{0})).logical_or(r.lt(Tensor::scalar_like(r, int64_t{0})));
  const Tensor mag = a.abs();
  return negative.where(mag.neg(), mag);
}

}  // namespace tr
