// gather, scatter, one_hot and indexing by tensors, through one-hot masks.
#include "core/tensor/index.h"

#include <algorithm>

#include "core/base/error.h"
#include "core/tensor/dims.h"
#include "core/tensor/logic.h"

namespace tr {
namespace {

void require_index(const Tensor& index, const char* what) {
  if (!is_int(index.dtype())) fail("type", "{} must be an integer tensor, not {}", what, name(index.dtype()));
}

// index == arange(n) along a dim `offset` dims before the last: the one-hot of each index value.
Tensor one_hot_along(const Tensor& index, int64_t n, int offset) {
  Shape s(static_cast<size_t>(offset) + 1, 1);
  s[0] = n;
  return index.eq(Tensor::arange(int64_t{0}, n, int64_t{1}, index.dtype(), index.device()).reshape(s));
}

// index.shape fits in x.shape on every dim but `dim` (and, for scatter, in src.shape on every dim).
void require_fits(const Tensor& x, const Tensor& index, int dim, const char* op) {
  if (index.ndim() != x.ndim())
    fail("shape", "{} needs an index of {} dims like the tensor, got shape {}", op, x.ndim(), shape_str(index.shape()));
  for (int d = 0; d < x.ndim(); d++)
    if (d != dim && index.shape()[d] > x.shape()[d])
      fail("shape", "{} index of shape {} is larger than the tensor's {} on dim {}", op, shape_str(index.shape()),
           shape_str(x.shape()), d);
}

std::vector<std::optional<Range>> prefix(const Shape& s) {
  std::vector<std::optional<Range>> out;
  for (int64_t n : s) out.emplace_back(Range{0, n});
  return out;
}

// src and the one-hot mask of index as (x's dims, then the index's positions on dim), padded to x's
// shape: tinygrad's _pre_scatter.
struct Scattered {
  Tensor src;
  Tensor mask;
};

Scattered pre_scatter(const Tensor& x, int dim, const Tensor& index, const Tensor& src, const char* op) {
  require_same_device(x, index);
  require_same_device(x, src);
  require_index(index, "scatter's index");
  const int d = resolve_dim(dim, x.ndim());
  require_fits(x, index, d, op);
  if (src.ndim() != x.ndim()) fail("shape", "{} needs src of {} dims, got shape {}", op, x.ndim(), shape_str(src.shape()));
  for (int i = 0; i < x.ndim(); i++)
    if (index.shape()[i] > src.shape()[i])
      fail("shape", "{} index of shape {} is larger than src's {}", op, shape_str(index.shape()), shape_str(src.shape()));
  if (src.dtype() != x.dtype()) fail("type", "{} needs src of the tensor's dtype {}, not {}", op, name(x.dtype()), name(src.dtype()));
  const int64_t n = x.shape()[d];
  // src and mask as (x's dims with dim replaced by x's size there, then the index's positions on dim)
  Shape grown = index.shape();
  grown.push_back(n);
  const Tensor s = src.shrink(prefix(index.shape())).unsqueeze(-1).expand(grown).transpose(-1, d);
  const Tensor m = one_hot_along(index.unsqueeze(-1), n, 0).transpose(-1, d);
  std::vector<Range> to_x;
  for (int i = 0; i < x.ndim(); i++) to_x.push_back({0, x.shape()[i] - s.shape()[i]});
  to_x.push_back({0, 0});
  return {s.pad(to_x), m.pad(to_x)};
}

}  // namespace

Tensor masked_pick(const Tensor& mask, const Tensor& values, const std::vector<int>& axes) {
  return mask.where(values, Tensor::zero_of(values)).sum(axes).cast(values.dtype());
}

Tensor one_hot(const Tensor& x, int64_t num_classes) {
  require_index(x, "one_hot's tensor");
  if (num_classes < 0) fail("value", "num_classes must not be negative, got {}", num_classes);
  const Tensor hot = one_hot_along(x.unsqueeze(-1), num_classes, 0);
  return hot.where(Tensor::full({}, int64_t{1}, DType::Int32, x.device()),
                   Tensor::full({}, int64_t{0}, DType::Int32, x.device()));
}

Tensor gather(const Tensor& x, int dim, const Tensor& index) {
  require_same_device(x, index);
  require_index(index, "gather's index");
  const int d = resolve_dim(dim, x.ndim());
  require_fits(x, index, d, "gather");
  Shape cut = index.shape();
  cut[d] = x.shape()[d];
  const Tensor xs = x.shrink(prefix(cut)).unsqueeze(-1).transpose(-1, d);
  return masked_pick(one_hot_along(index.unsqueeze(-1), x.shape()[d], 0), xs, {-1});
}

Tensor scatter(const Tensor& x, int dim, const Tensor& index, const Tensor& src, ScatterReduce reduce) {
  const Scattered scattered = pre_scatter(x, dim, index, src, "scatter");
  const Tensor& sp = scattered.src;
  const Tensor& mp = scattered.mask;
  const int d = resolve_dim(dim, x.ndim());
  switch (reduce) {
    case ScatterReduce::Add: return scatter_reduce(x, dim, index, src, ScatterReduceOp::Sum);
    case ScatterReduce::Multiply: return scatter_reduce(x, dim, index, src, ScatterReduceOp::Prod);
    case ScatterReduce::None: break;
  }
  // a later position on dim wins over an earlier one with the same index, as tinygrad's _masked_merge
  const int64_t k = index.shape()[d];
  if (k == 0) return x;
  const auto at = [&](const Tensor& t, int64_t i) {
    std::vector<std::optional<Range>> b(static_cast<size_t>(t.ndim()));
    b.back() = Range{i, i + 1};
    return t.shrink(b).squeeze(-1);
  };
  Tensor mask = at(mp, 0), values = at(sp, 0);
  for (int64_t i = 1; i < k; i++) {
    const Tensor mi = at(mp, i);
    values = mi.where(at(sp, i), values);
    mask = mask.logical_or(mi);
  }
  return mask.where(values, x);
}

Tensor scatter_reduce(const Tensor& x, int dim, const Tensor& index, const Tensor& src, ScatterReduceOp reduce,
                      bool include_self) {
  const Scattered scattered = pre_scatter(x, dim, index, src, "scatter_reduce");
  const Tensor& sp = scattered.src;
  const Tensor& mp = scattered.mask;
  const std::vector<int> last{-1};
  const auto constant = [&](ConstValue v) { return Tensor::full({}, v, sp.dtype(), sp.device()); };
  // x where no index names the position, `otherwise` where one does (x everywhere with include_self)
  const Tensor untouched = any(mp, last).logical_not();
  const auto self_or = [&](const Tensor& otherwise) { return include_self ? x : untouched.where(x, otherwise); };
  const auto picked = [&](ConstValue fill) { return mp.where(sp, constant(fill)); };
  switch (reduce) {
    case ScatterReduceOp::Sum: return picked(int64_t{0}).sum(last).add(self_or(constant(int64_t{0})));
    case ScatterReduceOp::Prod: return picked(int64_t{1}).prod(last).mul(self_or(constant(int64_t{1})));
    case ScatterReduceOp::Amax: {
      const ConstValue m = dtype_min(sp.dtype());
      return picked(m).max(last).maximum(self_or(constant(m)));
    }
    case ScatterReduceOp::Amin: {
      const ConstValue m = dtype_max(sp.dtype());
      return picked(m).min(last).minimum(self_or(constant(m)));
    }
    case ScatterReduceOp::Mean: {
      const Tensor one = Tensor::full({}, int64_t{1}, DType::Int32, x.device());
      const Tensor zero = Tensor::full({}, int64_t{0}, DType::Int32, x.device());
      const Tensor count = mp.where(one, zero).sum(last).add(include_self ? one : untouched.where(one, zero));
      return picked(int64_t{0}).sum(last).add(self_or(constant(int64_t{0}))).div(count);
    }
  }
  fail("value", "unknown scatter_reduce op");
}

Tensor getitem(const Tensor& x, const std::vector<Index>& indices, const std::vector<std::pair<size_t, Tensor>>& tensors) {
  const Tensor basic = x.getitem(indices);
  if (tensors.empty()) return basic;
  // where each tensor-indexed dim lands in basic: ints drop a dim, None adds one, ... stands for the rest
  const auto consumed = std::count_if(indices.begin(), indices.end(), [](const Index& i) {
    return std::holds_alternative<int64_t>(i) || std::holds_alternative<Slice>(i);
  });
  std::vector<int> dims;
  int out_dim = 0;
  size_t next = 0;
  for (size_t p = 0; p < indices.size(); p++) {
    if (next < tensors.size() && tensors[next].first == p) {
      dims.push_back(out_dim);
      next++;
    }
    if (std::holds_alternative<Ellipsis>(indices[p])) out_dim += x.ndim() - static_cast<int>(consumed);
    else if (!std::holds_alternative<int64_t>(indices[p])) out_dim++;
  }
  Shape big;
  std::vector<Tensor> idx;
  for (size_t i = 0; i < tensors.size(); i++) {
    const Tensor& t = tensors[i].second;
    require_same_device(x, t);
    if (!is_int(t.dtype())) fail("index", "an index tensor must be of an integer dtype, not {}", name(t.dtype()));
    const Tensor size = Tensor::scalar_like(t, basic.shape()[dims[i]]);
    idx.push_back(t.lt(Tensor::scalar_like(t, int64_t{0})).where(t.add(size), t));
    big = i == 0 ? t.shape() : broadcast_shape(big, t.shape());
  }
  const int first = dims[0], nb = static_cast<int>(big.size());
  Shape pre(basic.shape().begin(), basic.shape().begin() + first);
  Shape full = pre;
  full.insert(full.end(), big.begin(), big.end());
  full.insert(full.end(), basic.shape().begin() + first, basic.shape().end());
  std::optional<Tensor> mask;
  for (size_t i = 0; i < idx.size(); i++) {
    Shape s = idx[i].broadcast_to(big).shape();
    s.insert(s.begin(), pre.size(), 1);
    s.insert(s.end(), static_cast<size_t>(basic.ndim() - first), 1);
    const Tensor expanded = idx[i].broadcast_to(big).reshape(s).expand(full);
    const Tensor hot = one_hot_along(expanded, basic.shape()[dims[i]], basic.ndim() - dims[i] - 1);
    mask = mask ? mask->logical_and(hot) : hot;
  }
  Shape lifted = pre;
  lifted.insert(lifted.end(), big.size(), 1);
  lifted.insert(lifted.end(), basic.shape().begin() + first, basic.shape().end());
  std::vector<int> axes;
  for (int d : dims) axes.push_back(d + nb);
  Tensor out = masked_pick(*mask, basic.reshape(lifted), axes);
  // tensors on dims that are not next to each other put their dims first, as numpy does
  bool adjacent = true;
  for (size_t i = 1; i < dims.size(); i++) adjacent = adjacent && dims[i] == dims[i - 1] + 1;
  if (first != 0 && dims.size() != 1 && !adjacent) {
    std::vector<int> order;
    for (int i = first; i < first + nb; i++) order.push_back(i);
    for (int i = 0; i < first; i++) order.push_back(i);
    for (int i = first + nb; i < out.ndim(); i++) order.push_back(i);
    out = out.permute(order);
  }
  return out;
}

}  // namespace tr
