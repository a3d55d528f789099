#include "core/tensor/moments.h"

namespace tr {

std::pair<Tensor, Tensor> var_mean(const Tensor& x, const Axes& axis, bool keepdim, double correction) {
  return {x.var(axis, keepdim, correction), x.mean(axis, keepdim)};
}

std::pair<Tensor, Tensor> std_mean(const Tensor& x, const Axes& axis, bool keepdim, double correction) {
  return {x.std(axis, keepdim, correction), x.mean(axis, keepdim)};
}

Tensor normalize(const Tensor& x, double p, int dim, double eps) {
  const Axes along = std::vector<int>{dim};
  const Tensor zero = Tensor::scalar_like(x, int64_t{0});
  const Tensor den = p == 0 ? x.ne(zero).sum(along, true)
                            : x.abs().pow(ConstValue{p}).sum(along, true).pow(ConstValue{1 / p});
  return x.div(den.maximum(Tensor::scalar_like(den, eps)));
}

}  // namespace tr
