#include "core/tensor/hyperbolic.h"

namespace tr {
namespace {

Tensor log_of_x_plus_root(const Tensor& x, int64_t under_root) {
  return x.add(x.square().add(Tensor::scalar_like(x, under_root)).sqrt()).log();
}

}  // namespace

Tensor asinh(const Tensor& x) { return log_of_x_plus_root(x, 1); }

Tensor acosh(const Tensor& x) { return log_of_x_plus_root(x, -1); }

Tensor atanh(const Tensor& x) {
  const Tensor one = Tensor::scalar_like(x, int64_t{1});
  const Tensor q = one.add(x).div(one.sub(x)).log();
  return q.div(Tensor::scalar_like(q, int64_t{2}));
}

}  // namespace tr
