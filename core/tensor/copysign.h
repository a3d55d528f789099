#pragma once
// tinygrad 0.14's copysign: the magnitude of x with the sign of y, -0.0 and -inf counting as negative
// (y < 0 or 1/y < 0). The dtype is the broadcast's, not always float as in torch.
#include "core/tensor/tensor.h"

namespace tr {

Tensor copysign(const Tensor& x, const Tensor& y);

}  // namespace tr
