// Sorting by rank: each element's place is the number of elements that go before it (smaller ones,
// and equal ones at an earlier position), one compare-and-count reduce; the values and the indices
// are then picked by a one-hot of the ranks, as gather picks. tinygrad sorts with a bitonic network
// of about log2(n)^2 / 2 kernels and then counts equal elements to find indices the same way; ranks
// give the same values and indices in three kernels, for n^2 compares.
#include "core/tensor/sort.h"

#include "core/base/error.h"
#include "core/tensor/dims.h"
#include "core/tensor/index.h"

namespace tr {

std::pair<Tensor, Tensor> sort(const Tensor& x, int dim, bool descending) {
  const int d = x.ndim() == 0 ? 0 : resolve_dim(dim, x.ndim());
  if (x.ndim() == 0 || x.shape()[d] <= 1) return {x, Tensor::zeros(x.shape(), DType::Int32, x.device())};
  const int64_t n = x.shape()[d];
  const Tensor t = x.transpose(d, -1);
  const Tensor mine = t.unsqueeze(-1), other = t.unsqueeze(-2);  // (..., i, 1) and (..., 1, j)
  const Tensor ahead = descending ? other.gt(mine) : other.lt(mine);
  const Tensor i = Tensor::arange(int64_t{0}, n, int64_t{1}, DType::Int32, x.device());
  const Tensor earlier = i.reshape({1, n}).lt(i.reshape({n, 1}));
  const Tensor rank = ahead.logical_or(other.eq(mine).logical_and(earlier)).sum(std::vector<int>{-1});
  // place[i, r]: element i goes to place r
  const Tensor place = rank.unsqueeze(-1).eq(i);
  const Tensor values = masked_pick(place, mine, {-2});
  const Tensor indices = masked_pick(place, i.reshape({n, 1}), {-2});
  return {values.transpose(d, -1), indices.transpose(d, -1)};
}

Tensor argsort(const Tensor& x, int dim, bool descending) { return sort(x, dim, descending).second; }

std::pair<Tensor, Tensor> topk(const Tensor& x, int64_t k, int dim, bool largest) {
  const int d = x.ndim() == 0 ? 0 : resolve_dim(dim, x.ndim());
  const int64_t n = x.ndim() == 0 ? 1 : x.shape()[d];
  if (k < 0 || k > n) fail("value", "topk's k = {} is out of range for a dim of size {}", k, n);
  const auto [values, indices] = sort(x, d, largest);
  if (x.ndim() == 0) return {values, indices};
  std::vector<std::optional<Range>> first(static_cast<size_t>(x.ndim()));
  first[d] = Range{0, k};
  return {values.shrink(first), indices.shrink(first)};
}

}  // namespace tr
