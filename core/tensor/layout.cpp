// Layout functions, each built from movement ops as tinygrad builds it, so they stay views (or fuse
// into their consumer) and have gradients through the movement ops' rules.
#include "core/tensor/layout.h"

#include <numeric>

#include "core/base/error.h"
#include "core/tensor/dims.h"

namespace tr {
namespace {

// Python's a % b for b > 0.
int64_t py_mod(int64_t a, int64_t b) { return ((a % b) + b) % b; }

std::vector<std::optional<Range>> whole(int ndim) { return std::vector<std::optional<Range>>(static_cast<size_t>(ndim)); }

// Windows of k elements every `stride` along the last dim, as a view: (..., n) -> (..., windows, k).
// The last dim is repeated and read back with a row length one more than n, so that row r starts r
// elements later; no element is copied.
Tensor windows(const Tensor& x, int64_t k, int64_t stride) {
  const int64_t n = x.shape().back();
  const int64_t out = (n - k) / stride + 1;
  Shape lead(x.shape().begin(), x.shape().end() - 1);
  const auto with = [&](std::initializer_list<int64_t> tail) {
    Shape s = lead;
    s.insert(s.end(), tail);
    return s;
  };
  if (k == 0 || n == 0) return Tensor::zeros(with({out, k}), x.dtype(), x.device());
  const int64_t f = std::max<int64_t>(1, (out * stride - 1 + n - 1) / n);
  const int64_t row = n * f + 1;
  std::vector<int64_t> reps(x.shape().size(), 1);
  reps.back() = (k * row + n - 1) / n;
  std::vector<std::optional<Range>> cut = whole(x.ndim());
  cut.back() = Range{0, k * row};
  Tensor w = x.repeat(reps).shrink(cut).reshape(with({k, row}));
  std::vector<std::optional<Range>> cut2 = whole(x.ndim() + 1);
  cut2.back() = Range{0, out * stride};
  w = w.shrink(cut2).reshape(with({k, out, stride}));
  std::vector<std::optional<Range>> cut3 = whole(x.ndim() + 2);
  cut3.back() = Range{0, 1};
  w = w.shrink(cut3).reshape(with({k, out}));
  return w.transpose(-1, -2);
}

Tensor along(const Tensor& x, int dim, const Range& r) {
  std::vector<std::optional<Range>> b = whole(x.ndim());
  b[static_cast<size_t>(dim)] = r;
  return x.shrink(b);
}

// tinygrad's _tri: row + diagonal <= column, an (r, c) bool mask computed in the kernel.
Tensor tri(const Tensor& x, int64_t diagonal) {
  if (x.ndim() < 2) fail("shape", "tril and triu need at least 2 dims, got shape {}", shape_str(x.shape()));
  const int64_t r = x.shape()[x.ndim() - 2], c = x.shape().back();
  const Tensor rows = Tensor::arange(int64_t{0}, r, int64_t{1}, DType::Int64, x.device()).reshape({r, 1});
  const Tensor cols = Tensor::arange(int64_t{0}, c, int64_t{1}, DType::Int64, x.device());
  return rows.add(Tensor::scalar_like(rows, diagonal)).le(cols);
}

Tensor reflect_or_replicate(Tensor x, const std::vector<Range>& padding, PadMode mode) {
  for (int d = 0; d < x.ndim(); d++) {
    const int64_t before = std::max<int64_t>(0, padding[d].first), after = std::max<int64_t>(0, padding[d].second);
    const int64_t s = x.shape()[d];
    std::vector<Tensor> pieces;
    if (mode == PadMode::Reflect) {
      if (before >= s || after >= s)
        fail("value", "reflect padding ({}, {}) must be less than the size {} of dim {}", before, after, s, d);
      std::vector<Index> lo(static_cast<size_t>(x.ndim()), Slice{}), hi = lo;
      lo[d] = Slice{before, 0, -1};
      hi[d] = Slice{s - 2, s - 2 - after >= 0 ? std::optional<int64_t>(s - 2 - after) : std::nullopt, -1};
      if (before > 0) pieces.push_back(x.getitem(lo));
      pieces.push_back(x);
      if (after > 0) pieces.push_back(x.getitem(hi));
    } else {
      if (s == 0 && before + after > 0) fail("value", "replicate padding needs a non-empty dim {}", d);
      Shape sb = x.shape(), sa = x.shape();
      sb[d] = before;
      sa[d] = after;
      if (before > 0) pieces.push_back(along(x, d, {0, 1}).expand(sb));
      pieces.push_back(x);
      if (after > 0) pieces.push_back(along(x, d, {s - 1, s}).expand(sa));
    }
    x = pieces[0].cat(std::vector<Tensor>(pieces.begin() + 1, pieces.end()), d);
  }
  std::vector<std::optional<Range>> cut;
  for (int d = 0; d < x.ndim(); d++)
    cut.push_back(Range{-std::min<int64_t>(padding[d].first, 0), x.shape()[d] + std::min<int64_t>(padding[d].second, 0)});
  return x.shrink(cut);
}

Tensor circular(const Tensor& x, const std::vector<Range>& padding) {
  std::vector<std::optional<Range>> cut;
  for (int d = 0; d < x.ndim(); d++)
    cut.push_back(Range{-std::min<int64_t>(padding[d].first, 0), x.shape()[d] + std::min<int64_t>(padding[d].second, 0)});
  const Tensor y = x.shrink(cut);
  std::vector<int64_t> reps;
  for (int d = 0; d < y.ndim(); d++) {
    const int64_t before = std::max<int64_t>(0, padding[d].first), after = std::max<int64_t>(0, padding[d].second);
    if (before > y.shape()[d] || after > y.shape()[d])
      fail("value", "circular padding ({}, {}) wraps around dim {} of size {} more than once", before, after, d,
           y.shape()[d]);
    reps.push_back(1 + (before > 0) + (after > 0));
  }
  const Tensor r = y.repeat(reps);
  std::vector<std::optional<Range>> out;
  for (int d = 0; d < y.ndim(); d++) {
    const int64_t before = std::max<int64_t>(0, padding[d].first), after = std::max<int64_t>(0, padding[d].second);
    const int64_t o = y.shape()[d], n = r.shape()[d];
    out.push_back(Range{before == 0 ? 0 : o - before, after == 0 ? n : n - o + after});
  }
  return r.shrink(out);
}

}  // namespace

Tensor stack(const std::vector<Tensor>& xs, int dim) {
  if (xs.empty()) fail("type", "stack needs at least one tensor");
  const int d = resolve_dim(dim, xs[0].ndim(), 1);
  std::vector<Tensor> rest;
  for (size_t i = 1; i < xs.size(); i++) {
    if (xs[i].shape() != xs[0].shape())
      fail("shape", "stack needs tensors of one shape, got {} and {}", shape_str(xs[0].shape()), shape_str(xs[i].shape()));
    rest.push_back(xs[i].unsqueeze(d));
  }
  return xs[0].unsqueeze(d).cat(rest, d);
}

std::vector<Tensor> split(const Tensor& x, int64_t size, int dim) {
  const int d = resolve_dim(dim, x.ndim());
  if (size <= 0) fail("value", "split size must be positive, got {}", size);
  const int64_t n = x.shape()[d];
  std::vector<int64_t> sizes;
  for (int64_t at = 0; at < std::max<int64_t>(1, n); at += size) sizes.push_back(std::min(size, n - at));
  return split(x, sizes, d);
}

std::vector<Tensor> split(const Tensor& x, const std::vector<int64_t>& sizes, int dim) {
  const int d = resolve_dim(dim, x.ndim());
  const int64_t total = std::accumulate(sizes.begin(), sizes.end(), int64_t{0});
  for (int64_t s : sizes)
    if (s < 0) fail("value", "split sizes must not be negative");
  if (total != x.shape()[d])
    fail("value", "split sizes must add up to the size {} of dim {}, not {}", x.shape()[d], d, total);
  std::vector<Tensor> out;
  int64_t at = 0;
  for (int64_t s : sizes) {
    out.push_back(along(x, d, {at, at + s}));
    at += s;
  }
  return out;
}

std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int dim) {
  const int d = resolve_dim(dim, x.ndim());
  if (chunks <= 0) fail("value", "chunk needs a positive number of chunks, got {}", chunks);
  const int64_t n = x.shape()[d];
  if (n == 0) return split(x, std::vector<int64_t>(static_cast<size_t>(chunks), 0), d);
  return split(x, (n + chunks - 1) / chunks, d);
}

Tensor unflatten(const Tensor& x, int dim, const std::vector<int64_t>& sizes) {
  const int d = resolve_dim(dim, x.ndim());
  Shape out(x.shape().begin(), x.shape().begin() + d);
  out.insert(out.end(), sizes.begin(), sizes.end());
  out.insert(out.end(), x.shape().begin() + d + 1, x.shape().end());
  return x.reshape(out);
}

std::vector<Tensor> meshgrid(const std::vector<Tensor>& xs, bool xy) {
  if (xs.size() <= 1) return xs;
  const size_t n = xs.size();
  Shape out;
  std::vector<Tensor> shaped;
  for (size_t i = 0; i < n; i++) {
    if (xs[i].ndim() > 1) fail("shape", "meshgrid takes 0-dim or 1-dim tensors, got shape {}", shape_str(xs[i].shape()));
    const size_t at = xy && i < 2 ? 1 - i : i;
    Shape s(n, 1);
    s[at] = xs[i].numel();
    shaped.push_back(xs[i].reshape(s));
    out = i == 0 ? s : broadcast_shape(out, s);
  }
  for (Tensor& t : shaped) t = t.expand(out);
  return shaped;
}

Tensor repeat_interleave(const Tensor& x, int64_t repeats, std::optional<int> dim) {
  if (repeats < 0) fail("value", "repeat_interleave needs repeats >= 0, got {}", repeats);
  const Tensor y = dim ? x : x.flatten();
  const int d = dim ? resolve_dim(*dim, x.ndim()) : 0;
  const Shape s = y.shape();
  Shape one(s), grown(s), out(s);
  one.insert(one.begin() + d + 1, 1);
  grown.insert(grown.begin() + d + 1, repeats);
  out[d] = s[d] * repeats;
  return y.reshape(one).expand(grown).reshape(out);
}

Tensor roll(const Tensor& x, const std::vector<int64_t>& shifts, const std::optional<std::vector<int>>& dims) {
  if (!dims) {
    if (shifts.size() != 1) fail("value", "roll without dims takes one shift, got {}", shifts.size());
    return roll(x.flatten(), shifts, std::vector<int>{0}).reshape(x.shape());
  }
  if (dims->size() != shifts.size())
    fail("value", "roll needs one shift per dim: {} shifts for {} dims", shifts.size(), dims->size());
  std::vector<int> ds;
  for (int d : *dims) ds.push_back(resolve_dim(d, x.ndim()));
  if (x.numel() == 0) return x;
  std::vector<int64_t> reps(static_cast<size_t>(x.ndim()), 1);
  std::vector<std::optional<Range>> cut = whole(x.ndim());
  for (size_t i = 0; i < ds.size(); i++) {
    const int64_t n = x.shape()[ds[i]];
    const int64_t delta = n - py_mod(shifts[i], n);
    reps[ds[i]] = 2;
    cut[ds[i]] = Range{delta, delta + n};
  }
  return x.repeat(reps).shrink(cut);
}

Tensor diag(const Tensor& x) {
  if (x.ndim() != 1) fail("shape", "diag needs a 1-dim tensor, got shape {}", shape_str(x.shape()));
  const int64_t n = x.shape()[0];
  // each element followed by n zeros, read back n to a row: the element lands one further each row
  return x.unsqueeze(-1).pad({{0, 0}, {0, n}}).flatten().shrink({Range{0, n * n}}).reshape({n, n});
}

Tensor triu(const Tensor& x, int64_t diagonal) { return tri(x, diagonal).where(x, Tensor::zero_of(x)); }

Tensor tril(const Tensor& x, int64_t diagonal) { return tri(x, diagonal + 1).where(Tensor::zero_of(x), x); }

Tensor unfold(const Tensor& x, int dim, int64_t size, int64_t step) {
  const int d = resolve_dim(dim, x.ndim());
  if (size < 0) fail("value", "unfold size must be >= 0, got {}", size);
  if (step <= 0) fail("value", "unfold step must be > 0, got {}", step);
  if (size > x.shape()[d])
    fail("value", "unfold size {} is larger than the size {} of dim {}", size, x.shape()[d], d);
  std::vector<int> to_last;
  for (int i = 0; i < x.ndim(); i++)
    if (i != d) to_last.push_back(i);
  to_last.push_back(d);
  const Tensor w = windows(x.permute(to_last), size, step);
  // back: the windows take dim's place, the window's elements are the last dim
  std::vector<int> back(static_cast<size_t>(x.ndim()) + 1);
  for (int i = 0; i < x.ndim(); i++) back[to_last[i]] = i;
  back[x.ndim()] = x.ndim();
  return w.permute(back);
}

Tensor pad(const Tensor& x, const std::vector<Range>& padding, PadMode mode, ConstValue value) {
  if (static_cast<int>(padding.size()) != x.ndim())
    fail("shape", "pad needs (before, after) for each of the {} dims, got {}", x.ndim(), padding.size());
  switch (mode) {
    case PadMode::Constant: return x.pad(padding, value);
    case PadMode::Reflect:
    case PadMode::Replicate: return reflect_or_replicate(x, padding, mode);
    case PadMode::Circular: return circular(x, padding);
  }
  return x;
}

}  // namespace tr
