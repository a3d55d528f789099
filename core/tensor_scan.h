#pragma once
// Cumulative sums, products and maxima along one axis: one reduce kernel; past 512 elements three (the
// scans within chunks, the scan of the chunks' totals, and their combination), whatever the length.
#include <utility>

#include "core/tensor.h"

namespace tr {

Tensor cumsum(const Tensor& x, int axis = 0);   // sum's dtype: small ints and bool accumulate in int32
Tensor cumprod(const Tensor& x, int axis);      // x's dtype
std::pair<Tensor, Tensor> cummax(const Tensor& x, int axis = 0);  // values, and int32 index of the first maximum

}  // namespace tr
