#pragma once
// Random tensors that tinygrad 0.14 derives from rand: rand_like and randn_like draw x's shape from the
// session's generator (or seed='s stream), randn_like by tinygrad's Box-Muller over one draw of twice
// the elements (the first half the angles, the second the radii); randperm is the argsort of a draw.
#include <optional>

#include "core/tensor.h"

namespace tr {

Tensor rand_like(const Tensor& x, std::optional<DType> dtype = {}, std::optional<uint64_t> seed = {});
Tensor randn_like(const Tensor& x, std::optional<DType> dtype = {}, std::optional<uint64_t> seed = {});
Tensor randperm(int64_t n, DType dtype = DType::Int32, std::optional<uint64_t> seed = {}, const std::string& device = "");

}  // namespace tr
