#pragma once
// Random tensors that tinygrad 0.14 derives from rand: rand_like and randn_like draw x's shape from the
// session's generator (or seed='s stream), randn_like by tinygrad's Box-Muller over one draw of twice
// the elements (the first half the angles, the second the radii); randperm is the argsort of a draw;
// multinomial samples rows of weights.
#include <optional>

#include "core/tensor/tensor.h"

namespace tr {

Tensor rand_like(const Tensor& x, std::optional<DType> dtype = {}, std::optional<uint64_t> seed = {});
Tensor randn_like(const Tensor& x, std::optional<DType> dtype = {}, std::optional<uint64_t> seed = {});
// num_samples int32 class indices per row of the 1- or 2-dim weights x: with replacement (or for one
// sample) a rand draw of (num_samples, rows, 1) against each row's normalised cumsum, as tinygrad's;
// without, tinygrad's Efraimidis-Spirakis: the top num_samples of log2(rand) / weight.
Tensor multinomial(const Tensor& x, int64_t num_samples = 1, bool replacement = false, std::optional<uint64_t> seed = {});
Tensor randperm(int64_t n, DType dtype = DType::Int32, std::optional<uint64_t> seed = {}, const std::string& device = "");

}  // namespace tr
