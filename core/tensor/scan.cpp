// Scans as tinygrad builds them: element i of the result reduces the elements j <= i, picked by a
// triangular mask (the same work as tinygrad's pad and pool), so a scan is one reduce kernel. Past
// 512 elements it runs in two levels of 256, as tinygrad's _split_cumalu, so the work stays linear
// in the length times 256.
#include "core/tensor/scan.h"

#include <limits>

#include "core/base/error.h"
#include "core/tensor/dims.h"

namespace tr {
namespace {

enum class Scan : uint8_t { Sum, Prod, Max };

constexpr int64_t kSplit = 256;

ConstValue identity(Scan op, DType t) {
  switch (op) {
    case Scan::Sum: return int64_t{0};
    case Scan::Prod: return int64_t{1};
    case Scan::Max: break;
  }
  if (t == DType::Bool) return false;
  if (is_float(t)) return -std::numeric_limits<double>::infinity();
  if (is_unsigned(t)) return int64_t{0};
  return std::numeric_limits<int64_t>::min() >> (64 - 8 * itemsize(t));
}

Tensor reduce_last(const Tensor& x, Scan op) {
  const std::vector<int> last{-1};
  switch (op) {
    case Scan::Sum: return x.sum(last);
    case Scan::Prod: return x.prod(last);
    case Scan::Max: return x.max(last);
  }
  return x;
}

Tensor combine(const Tensor& a, const Tensor& b, Scan op) {
  switch (op) {
    case Scan::Sum: return a.add(b);
    case Scan::Prod: return a.mul(b);
    case Scan::Max: return a.maximum(b);
  }
  return a;
}

// j <= i for an (n, n) grid: the lower triangle, diagonal included.
Tensor lower(int64_t n, const std::string& device) {
  const Tensor i = Tensor::arange(int64_t{0}, n, int64_t{1}, DType::Int32, device).reshape({n, 1});
  const Tensor j = Tensor::arange(int64_t{0}, n, int64_t{1}, DType::Int32, device).reshape({1, n});
  return j.le(i);
}

// The scan along the last dim, one reduce: (..., n) -> (..., n, n) masked -> (..., n).
Tensor scan_last(const Tensor& x, Scan op) {
  const int64_t n = x.shape().back();
  const Tensor rows = x.unsqueeze(-2);
  return reduce_last(lower(n, x.device()).where(rows, Tensor::full({}, identity(op, x.dtype()), x.dtype(), x.device())), op);
}

Tensor scan(const Tensor& x, int axis, Scan op) {
  const int a = x.ndim() == 0 ? 0 : resolve_dim(axis, x.ndim());
  if (x.ndim() == 0 || x.numel() == 0) {
    // nothing to scan, but a sum still has sum's dtype (half stays half)
    if (op != Scan::Sum) return x;
    return x.cast(sum_dtype(x.dtype()));
  }
  const Tensor t = x.transpose(a, -1);
  const int64_t n = t.shape().back();
  if (n <= 2 * kSplit) return scan_last(t, op).transpose(a, -1);
  // two levels: scans within chunks of 256, then the scan of the chunks' totals shifted by one chunk
  const int64_t padded = (n + kSplit - 1) / kSplit * kSplit;
  std::vector<Range> front(static_cast<size_t>(t.ndim()), Range{0, 0});
  front.back() = {padded - n, 0};
  Shape chunked(t.shape().begin(), t.shape().end() - 1);
  chunked.insert(chunked.end(), {padded / kSplit, kSplit});
  const Tensor chunks = scan_last(t.pad(front, identity(op, x.dtype())).reshape(chunked), op);
  std::vector<std::optional<Range>> last(static_cast<size_t>(chunks.ndim()));
  last.back() = Range{kSplit - 1, kSplit};
  const Tensor totals = scan_last(chunks.shrink(last).squeeze(-1), op);
  std::vector<Range> shift(static_cast<size_t>(totals.ndim()), Range{0, 0});
  shift.back() = {1, -1};
  const Tensor base = totals.pad(shift, identity(op, totals.dtype())).unsqueeze(-1);
  const Tensor all = combine(chunks, base, op).flatten(-2);
  std::vector<std::optional<Range>> tail(static_cast<size_t>(all.ndim()));
  tail.back() = Range{padded - n, padded};
  return all.shrink(tail).transpose(a, -1);
}

}  // namespace

Tensor cumsum(const Tensor& x, int axis) { return scan(x, axis, Scan::Sum); }

Tensor cumprod(const Tensor& x, int axis) { return scan(x, axis, Scan::Prod); }

std::pair<Tensor, Tensor> cummax(const Tensor& x, int axis) {
  const Tensor values = scan(x, axis, Scan::Max);
  if (x.ndim() == 0) return {values, Tensor::zeros({}, DType::Int32, x.device())};
  const int a = resolve_dim(axis, x.ndim());
  const int64_t n = x.shape()[a];
  const Tensor xt = x.transpose(a, -1), vt = values.transpose(a, -1);
  // the first j <= i where x[j] equals the running maximum at i, by the largest weight n - j
  const Tensor match = xt.unsqueeze(-1).eq(vt.unsqueeze(-2)).logical_and(lower(n, x.device()).transpose(0, 1));
  const Tensor weights = Tensor::arange(n, int64_t{0}, int64_t{-1}, DType::Int32, x.device()).reshape({n, 1});
  const Tensor w = match.cast(DType::Int32).mul(weights);
  const Tensor first = n == 0 ? w.sum(std::vector<int>{-2}) : w.max(std::vector<int>{-2});
  const Tensor idx = Tensor::scalar_like(first, n).sub(first).cast(DType::Int32);
  return {values, idx.transpose(-1, a)};
}

std::pair<Tensor, Tensor> cummin(const Tensor& x, int axis) {
  const auto [values, indices] = cummax(x.inverse(), axis);
  return {values.inverse(), indices};
}

Tensor logcumsumexp(const Tensor& x, int axis) {
  if (x.ndim() == 0) return x;
  const int a = resolve_dim(axis, x.ndim());
  const Tensor t = x.transpose(a, -1);
  // the running maximum of the prefix that ends at i, beside each of that prefix's elements j <= i
  const Tensor m = cummax(t, -1).first;
  const Tensor shifted = t.unsqueeze(-2).sub(m.unsqueeze(-1));
  const Tensor below = Tensor::full({}, dtype_min(shifted.dtype()), shifted.dtype(), x.device());
  const Tensor sums = lower(t.shape().back(), x.device()).where(shifted, below).exp().sum(std::vector<int>{-1});
  return sums.log().add(m).transpose(-1, a);
}

}  // namespace tr
