// layernorm and batchnorm as tinygrad 0.14 writes them: mean, variance and rsqrt, all fusible.
#include <algorithm>

#include "core/base/error.h"
#include "core/tensor/tensor.h"

namespace tr {

Tensor Tensor::layernorm(const std::vector<int>& axis, double eps) const {
  const Tensor y = sub(mean(axis, true));
  return y.mul(y.mul(y).mean(axis, true).add(scalar_like(y, eps)).rsqrt());
}

Tensor Tensor::batchnorm(const std::optional<Tensor>& weight, const std::optional<Tensor>& bias, const Tensor& mean,
                         const Tensor& invstd, const std::vector<int>& axis) const {
  // the statistics' shape: the named axes kept, every other one 1
  std::vector<int> axes;
  for (const int a : axis) {
    if (a < -ndim() || a >= ndim()) fail("index", "axis {} is out of range for a tensor of {} dims", a, ndim());
    axes.push_back(a < 0 ? a + ndim() : a);
  }
  Shape shape_of_stats;
  for (int d = 0; d < ndim(); d++)
    shape_of_stats.push_back(std::find(axes.begin(), axes.end(), d) != axes.end() ? shape()[static_cast<size_t>(d)] : 1);
  Tensor x = sub(mean.reshape(shape_of_stats));
  if (weight) x = x.mul(weight->reshape(shape_of_stats));
  const Tensor ret = x.mul(invstd.ndim() == static_cast<int>(axes.size()) ? invstd.reshape(shape_of_stats) : invstd);
  return bias ? ret.add(bias->reshape(shape_of_stats)) : ret;
}

}  // namespace tr
