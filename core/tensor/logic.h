#pragma once
// Element-wise tests, clamps, masks, truth reductions and bitwise ops, with tinygrad's dtypes: the
// tests give bool, the bitwise ops take bool or integer tensors.
#include <optional>

#include "core/tensor/tensor.h"

namespace tr {

// At least one bound; a bound of another dtype promotes as where() does.
Tensor clip(const Tensor& x, const std::optional<Tensor>& lo, const std::optional<Tensor>& hi);
Tensor masked_fill(const Tensor& x, const Tensor& mask, const Tensor& value);
Tensor isnan(const Tensor& x);
Tensor isinf(const Tensor& x, bool detect_positive = true, bool detect_negative = true);
Tensor isfinite(const Tensor& x);
Tensor isclose(const Tensor& x, const Tensor& other, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false);
Tensor any(const Tensor& x, const Axes& axis = {}, bool keepdim = false);  // empty: False
Tensor all(const Tensor& x, const Axes& axis = {}, bool keepdim = false);  // empty: True

Tensor bitwise_and(const Tensor& x, const Tensor& y);
Tensor bitwise_or(const Tensor& x, const Tensor& y);
Tensor bitwise_xor(const Tensor& x, const Tensor& y);
Tensor bitwise_not(const Tensor& x);
// Shifts of an integer tensor by a constant number of bits: products and floor quotients by 2**bits.
Tensor lshift(const Tensor& x, int64_t bits);
Tensor rshift(const Tensor& x, int64_t bits);
// Shifts by an integer tensor of counts (broadcast with x); a count outside [0, bits of x's dtype)
// gives an unspecified value, as in C.
Tensor lshift(const Tensor& x, const Tensor& bits);
Tensor rshift(const Tensor& x, const Tensor& bits);

}  // namespace tr
