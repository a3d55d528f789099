#pragma once
// Tensors with a buffer of their own, as tinygrad's empty and clone: empty's values are unspecified
// (this engine fills its buffer with zeros, one kernel), clone's are x's, kept when x is assigned to
// after the clone is realized.
#include <optional>
#include <string>

#include "core/tensor/tensor.h"

namespace tr {

Tensor empty(const Shape& shape, DType dtype = DType::Float32, const std::string& device = "");
// A copy of x into a buffer of its own, even where x already has one; x's .grad is cloned with it.
Tensor clone(const Tensor& x);

}  // namespace tr
