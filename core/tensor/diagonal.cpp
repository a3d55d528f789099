// diagonal as a view: the two dims moved last and cut to a d x d square, whose d*d elements read
// with a row length of d + 1 put the diagonal in the first column.
#include "core/base/error.h"
#include "core/tensor/dims.h"
#include "core/tensor/layout.h"

namespace tr {

Tensor diagonal(const Tensor& x, int64_t offset, int dim1, int dim2) {
  const int a = resolve_dim(dim1, x.ndim()), b = resolve_dim(dim2, x.ndim());
  if (a == b) fail("value", "diagonal's dim1 and dim2 cannot be the same dimension, both are {}", a);
  std::vector<int> order;
  for (int i = 0; i < x.ndim(); i++)
    if (i != a && i != b) order.push_back(i);
  order.insert(order.end(), {a, b});
  const Tensor moved = x.permute(order);
  const int n = moved.ndim();
  const int64_t rows = moved.shape()[n - 2], cols = moved.shape()[n - 1];
  const int64_t row0 = offset < 0 ? -offset : 0, col0 = offset > 0 ? offset : 0;
  // as tinygrad's: an offset just past the edge gives an empty diagonal, one further is an error
  if (row0 > rows || col0 > cols)
    fail("value", "diagonal offset {} is out of range for dims of size {} and {}", offset, rows, cols);
  const int64_t d = std::min(rows - row0, cols - col0);
  Shape lead(moved.shape().begin(), moved.shape().end() - 2);
  if (d <= 0) {
    lead.push_back(0);
    return Tensor::zeros(lead, x.dtype(), x.device());
  }
  std::vector<std::optional<Range>> square(static_cast<size_t>(n));
  square[n - 2] = Range{row0, row0 + d};
  square[n - 1] = Range{col0, col0 + d};
  std::vector<Range> tail(static_cast<size_t>(n - 1), Range{0, 0});
  tail.back() = {0, d};
  Shape grid = lead;
  grid.insert(grid.end(), {d, d + 1});
  std::vector<std::optional<Range>> first(static_cast<size_t>(n));
  first.back() = Range{0, 1};
  return moved.shrink(square).flatten(-2).pad(tail).reshape(grid).shrink(first).squeeze(-1);
}

}  // namespace tr
