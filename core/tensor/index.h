#pragma once
// Indexing by tensors, as tinygrad does it: an index becomes a one-hot mask (an arange compared with
// the index), and a where + sum over the indexed dim picks the values. Everything stays in kernels
// (no value is read back to the host), fuses, and has gradients through where and sum.
#include <utility>
#include <vector>

#include "core/tensor/tensor.h"

namespace tr {

// values where mask holds, summed over axes (one element is picked per output), in values' dtype.
Tensor masked_pick(const Tensor& mask, const Tensor& values, const std::vector<int>& axes);
Tensor one_hot(const Tensor& x, int64_t num_classes);  // int32, a new last dim
Tensor gather(const Tensor& x, int dim, const Tensor& index);
enum class ScatterReduce : uint8_t { None, Add, Multiply };
Tensor scatter(const Tensor& x, int dim, const Tensor& index, const Tensor& src,
               ScatterReduce reduce = ScatterReduce::None);
// tinygrad's scatter_reduce: each element of x combined with every src value whose index names its
// position (and, without include_self, only with those where some index does).
enum class ScatterReduceOp : uint8_t { Sum, Prod, Mean, Amax, Amin };
Tensor scatter_reduce(const Tensor& x, int dim, const Tensor& index, const Tensor& src, ScatterReduceOp reduce,
                      bool include_self = true);
// x[indices] where some entries are integer tensors: `tensors` holds (position in indices, tensor),
// and indices holds a full slice at each such position. Negative index values count from the end;
// an index out of range picks 0.
Tensor getitem(const Tensor& x, const std::vector<Index>& indices, const std::vector<std::pair<size_t, Tensor>>& tensors);

}  // namespace tr
