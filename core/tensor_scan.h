#pragma once
// Cumulative sums, products and maxima along one axis, in one reduce kernel (two past 512 elements).
#include <utility>

#include "core/tensor.h"

namespace tr {

Tensor cumsum(const Tensor& x, int axis = 0);   // sum's dtype: small ints and bool accumulate in int32
Tensor cumprod(const Tensor& x, int axis);      // x's dtype
std::pair<Tensor, Tensor> cummax(const Tensor& x, int axis = 0);  // values, and int32 index of the first maximum

}  // namespace tr
