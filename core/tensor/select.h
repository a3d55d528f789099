#pragma once
// Selections whose length depends on the data, as tinygrad 0.14's masked_select and nonzero. Without
// size= the length is the number of true (non-zero) elements, which is read back from the device
// first: the mask's count is realized (one small schedule) when the function is called, and the
// result is then a lazy graph of that length like any other. With size= nothing is read back: the
// result has `size` rows, the missing ones filled with fill_value, the extra ones dropped.
#include <optional>

#include "core/tensor/tensor.h"

namespace tr {

// The elements of x where the bool mask (broadcast to x's shape) holds, row-major, as a 1-dim tensor
// of x's dtype.
Tensor masked_select(const Tensor& x, const Tensor& mask, std::optional<int64_t> size = {},
                     ConstValue fill_value = int64_t{0});
// The int32 coordinates of x's non-zero elements, one row of x.ndim() per element, row-major.
Tensor nonzero(const Tensor& x, std::optional<int64_t> size = {}, ConstValue fill_value = int64_t{0});

}  // namespace tr
