#pragma once
// Layout functions of tinygrad's Tensor built from movement ops (and masks where a value must be
// chosen): stacking and splitting, windows, rolls, triangles, diagonals and padding modes.
#include <optional>
#include <vector>

#include "core/tensor/tensor.h"

namespace tr {

Tensor stack(const std::vector<Tensor>& xs, int dim = 0);
// Pieces of `size` along dim (the last one shorter when size does not divide it).
std::vector<Tensor> split(const Tensor& x, int64_t size, int dim = 0);
std::vector<Tensor> split(const Tensor& x, const std::vector<int64_t>& sizes, int dim = 0);
// At most `chunks` pieces of equal size (the last one shorter).
std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int dim = 0);
Tensor unflatten(const Tensor& x, int dim, const std::vector<int64_t>& sizes);
// Coordinate grids of 1-dim (or 0-dim) tensors; xy: the first two dims swapped (Cartesian).
std::vector<Tensor> meshgrid(const std::vector<Tensor>& xs, bool xy = false);
Tensor repeat_interleave(const Tensor& x, int64_t repeats, std::optional<int> dim = {});
// dims absent: roll the flattened tensor.
Tensor roll(const Tensor& x, const std::vector<int64_t>& shifts, const std::optional<std::vector<int>>& dims = {});
Tensor diag(const Tensor& x);  // a 1-dim tensor on the diagonal of a square matrix
// The diagonal `offset` above (below, when negative) the main one of dims dim1 and dim2, as a view:
// those two dims are replaced by a last dim of the diagonal's length (0 when offset is past the edge).
Tensor diagonal(const Tensor& x, int64_t offset = 0, int dim1 = 0, int dim2 = 1);
Tensor tril(const Tensor& x, int64_t diagonal = 0);
Tensor triu(const Tensor& x, int64_t diagonal = 0);
// dim replaced by (windows, size): windows of `size` starting every `step` elements, as a view.
Tensor unfold(const Tensor& x, int dim, int64_t size, int64_t step);

// Pads the end of each dim with value up to shape (a dim of -1 keeps its size); a smaller size is an error.
Tensor pad_to(const Tensor& x, const std::vector<int64_t>& shape, ConstValue value = int64_t{0});

enum class PadMode : uint8_t { Constant, Reflect, Replicate, Circular };
// (before, after) per dim; negative amounts remove elements, after the mode has filled the rest.
Tensor pad(const Tensor& x, const std::vector<Range>& padding, PadMode mode, ConstValue value = int64_t{0});

}  // namespace tr
