#pragma once
// The inverse hyperbolic functions, composed from log and sqrt as tinygrad 0.14 composes them, so
// values out of the domain (acosh below 1, atanh beyond +-1) are nan and the ends of the domain inf.
#include "core/tensor/tensor.h"

namespace tr {

Tensor asinh(const Tensor& x);  // log(x + sqrt(x^2 + 1))
Tensor acosh(const Tensor& x);  // log(x + sqrt(x^2 - 1))
Tensor atanh(const Tensor& x);  // log((1 + x) / (1 - x)) / 2

}  // namespace tr
