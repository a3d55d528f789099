#pragma once
// Cumulative sums, products and maxima along one axis: one reduce kernel; past 512 elements three (the
// scans within chunks, the scan of the chunks' totals, and their combination), whatever the length.
#include <utility>

#include "core/tensor/tensor.h"

namespace tr {

Tensor cumsum(const Tensor& x, int axis = 0);   // sum's dtype: small ints and bool accumulate in int32
Tensor cumprod(const Tensor& x, int axis);      // x's dtype
std::pair<Tensor, Tensor> cummax(const Tensor& x, int axis = 0);  // values, and int32 index of the first maximum
std::pair<Tensor, Tensor> cummin(const Tensor& x, int axis = 0);  // values, and int32 index of the first minimum
// log(cumsum(exp(x))) without overflow: each prefix shifted by its running maximum, as tinygrad's
// (one (n, n) masked reduce, however long the axis). Ints give float32; a 0-dim x is itself.
Tensor logcumsumexp(const Tensor& x, int axis = 0);

}  // namespace tr
