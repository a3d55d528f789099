#pragma once
// torch's var_mean and std_mean as tinygrad spells them: the two statistics of one reduction, in
// one call, with var's and std's arguments.
#include <utility>

#include "core/tensor/tensor.h"

namespace tr {

std::pair<Tensor, Tensor> var_mean(const Tensor& x, const Axes& axis = {}, bool keepdim = false, double correction = 1);
std::pair<Tensor, Tensor> std_mean(const Tensor& x, const Axes& axis = {}, bool keepdim = false, double correction = 1);

// Lp normalisation along dim: x / max(||x||_p, eps); p = 0 counts the non-zero elements instead.
Tensor normalize(const Tensor& x, double p = 2.0, int dim = 1, double eps = 1e-12);

}  // namespace tr
