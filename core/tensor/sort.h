#pragma once
// Sorting along one dim: values and int32 indices, stable (equal elements keep their order).
#include <utility>

#include "core/tensor/tensor.h"

namespace tr {

std::pair<Tensor, Tensor> sort(const Tensor& x, int dim = -1, bool descending = false);
Tensor argsort(const Tensor& x, int dim = -1, bool descending = false);
std::pair<Tensor, Tensor> topk(const Tensor& x, int64_t k, int dim = -1, bool largest = true);

}  // namespace tr
