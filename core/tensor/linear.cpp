// tinygrad's Tensor.linear: the affine map of nn.Linear as one tensor function.
#include "core/base/error.h"
#include "core/tensor/tensor.h"

namespace tr {

Tensor Tensor::linear(const Tensor& weight, const std::optional<Tensor>& bias, std::optional<DType> dtype) const {
  if (dtype) return cast(*dtype).linear(weight.cast(*dtype), bias ? std::optional<Tensor>(bias->cast(*dtype)) : std::nullopt);
  const Tensor x = weight.ndim() == 1 ? mul(weight) : dot(weight);
  return bias ? x.add(*bias) : x;
}

}  // namespace tr
