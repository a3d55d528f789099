#pragma once
// tinygrad's div(rounding_mode=): true division (Trunc and Floor round its quotient) except between
// two int tensors, where trunc is C's integer division and floor Python's //, both keeping the int dtype.
#include "core/tensor/tensor.h"

namespace tr {

enum class Rounding : uint8_t { None, Trunc, Floor };
Tensor div(const Tensor& x, const Tensor& y, Rounding rounding);

}  // namespace tr
