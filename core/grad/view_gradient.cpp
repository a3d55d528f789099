// The gradient through a VIEW. A tracker is a stack of views, each reading the one below as a
// contiguous buffer, so the gradient goes down the stack one view at a time. One view reads element
// offset + sum(i_k * stride_k) of its flat source where its mask holds; its gradient scatters back
// there: masked-out elements drop out (shrink), broadcast dims sum (stride 0), reversed dims flip
// back, and what remains is a strided block of the source, rebuilt with pads and a reshape.
#include <algorithm>
#include <limits>
#include <numeric>

#include "core/base/error.h"
#include "core/grad/gradient.h"

namespace tr {
namespace {

Tensor zeros_flat(const Tensor& like, int64_t n) { return Tensor::scalar_like(like, 0.0).reshape({1}).expand({n}); }

// A flat gradient of `size` elements from position 0, fitted to a source of n.
Tensor placed(const Tensor& g, int64_t size, int64_t n) {
  if (size > n) return g.shrink({Range{0, n}});
  if (size < n) return g.pad({Range{0, n - size}});
  return g;
}

// Strides (largest first) that each divide the one before, with the block inside each grid axis: every
// source element is read at most once, and the gradient is a strided block padded into place.
bool non_overlapping(const std::vector<int64_t>& s, const std::vector<int64_t>& len, int64_t offset) {
  int64_t rest = offset;
  for (size_t j = 0; j < s.size(); j++) {
    if (j > 0 && s[j - 1] % s[j] != 0) return false;
    const int64_t digit = rest / s[j];
    rest %= s[j];
    if (j > 0 && digit + len[j] > s[j - 1] / s[j]) return false;
  }
  return true;
}

// The order to fold dims in: the one that keeps the intermediate tensors smallest (a subset DP; the
// flat extent after folding a set does not depend on the order). A pool's window dims fold last, into
// the output dims already placed, which costs kernel-size times the source, not its square.
std::vector<size_t> fold_order(const std::vector<int64_t>& len, const std::vector<int64_t>& s) {
  const size_t m = len.size();
  std::vector<size_t> by_stride(m);
  std::iota(by_stride.begin(), by_stride.end(), size_t{0});
  std::stable_sort(by_stride.begin(), by_stride.end(), [&](size_t a, size_t b) { return s[a] < s[b]; });
  if (m > 16) return by_stride;
  const size_t full = (size_t{1} << m) - 1;
  std::vector<double> cost(full + 1, std::numeric_limits<double>::infinity());
  std::vector<size_t> last(full + 1, 0);
  cost[0] = 0;
  for (size_t set = 0; set < full; set++) {
    if (cost[set] == std::numeric_limits<double>::infinity()) continue;
    double extent = 1, rest = 1;
    for (size_t d = 0; d < m; d++) {
      if (set >> d & 1) extent += static_cast<double>((len[d] - 1) * s[d]);
      else rest *= static_cast<double>(len[d]);
    }
    for (size_t d = 0; d < m; d++) {
      if (set >> d & 1) continue;
      const auto l = static_cast<double>(len[d]), st = static_cast<double>(s[d]);
      const double width = st >= extent ? st : extent + l * st;
      const double c = cost[set] + rest * width;
      if (c < cost[set | size_t{1} << d]) cost[set | size_t{1} << d] = c, last[set | size_t{1} << d] = d;
    }
  }
  std::vector<size_t> order;
  for (size_t set = full; set; set &= ~(size_t{1} << last[set])) order.push_back(last[set]);
  std::reverse(order.begin(), order.end());
  return order;
}

// The gradient of a view whose reads overlap (a pool's windows): a scatter-add, built one dim at a
// time. g holds (dims not yet folded..., F): its last axis is a flat run of F positions from offset.
// Folding a dim of L elements a stride st apart makes the run (L - 1) * st + F long: side by side
// when st >= F, else by skewing: each row padded by L * st and the whole read back in rows of the new
// width shifts row i by i * st, and a sum over the rows adds what lands on one position.
Tensor scatter_add(Tensor g, const std::vector<int64_t>& len, const std::vector<int64_t>& s, int64_t offset, int64_t n) {
  Shape with_run = len;
  with_run.push_back(1);
  g = g.reshape(with_run);
  std::vector<size_t> alive(len.size());
  std::iota(alive.begin(), alive.end(), size_t{0});
  int64_t run = 1;
  for (const size_t d : fold_order(len, s)) {
    const auto at = static_cast<int>(std::find(alive.begin(), alive.end(), d) - alive.begin());
    std::vector<int> order;
    for (int i = 0; i < static_cast<int>(alive.size()); i++)
      if (i != at) order.push_back(i);
    order.insert(order.end(), {at, static_cast<int>(alive.size())});
    g = g.permute(order);
    alive.erase(alive.begin() + at);
    Shape lead(g.shape().begin(), g.shape().end() - 2);
    const auto shaped = [&](std::initializer_list<int64_t> tail) {
      Shape out = lead;
      out.insert(out.end(), tail);
      return out;
    };
    const auto last_dim = [&](Range r, size_t rank) {
      std::vector<Range> p(rank - 1, Range{0, 0});
      p.push_back(r);
      return p;
    };
    const int64_t l = len[d], st = s[d], width = (l - 1) * st + run;
    if (st >= run) {
      g = g.pad(last_dim({0, st - run}, lead.size() + 2)).reshape(shaped({l * st}));
      std::vector<std::optional<Range>> keep(lead.size(), std::nullopt);
      keep.emplace_back(Range{0, width});
      g = g.shrink(keep);
    } else {
      const int64_t row = run + l * st;
      g = g.pad(last_dim({0, l * st}, lead.size() + 2)).reshape(shaped({l * row}));
      std::vector<std::optional<Range>> keep(lead.size(), std::nullopt);
      keep.emplace_back(Range{0, l * width});
      g = g.shrink(keep).reshape(shaped({l, width})).sum(std::vector<int>{-2});
    }
    run = width;
  }
  return placed(g.reshape({run}).pad({Range{offset, 0}}), offset + run, n);
}

// g has view.shape; returns the gradient of the flat source of n elements, shape (n,).
Tensor one_view_gradient(Tensor g, const View& view, int64_t n) {
  Shape shape = view.shape;
  std::vector<int64_t> strides = view.strides;
  int64_t offset = view.offset;
  if (view.mask) {
    std::vector<std::optional<Range>> bounds;
    for (size_t d = 0; d < shape.size(); d++) {
      const Range r = (*view.mask)[d];
      if (r.second <= r.first) return zeros_flat(g, n);  // nothing is read
      bounds.emplace_back(r);
      offset += r.first * strides[d];
      shape[d] = r.second - r.first;
    }
    g = g.shrink(bounds);
  }
  std::vector<int> summed, flipped;
  for (size_t d = 0; d < shape.size(); d++) {
    if (strides[d] == 0 && shape[d] > 1) summed.push_back(static_cast<int>(d));
    if (strides[d] < 0) {
      flipped.push_back(static_cast<int>(d));
      offset += (shape[d] - 1) * strides[d];
      strides[d] = -strides[d];
    }
  }
  if (!summed.empty()) g = g.sum(summed, true);
  if (!flipped.empty()) g = g.flip(flipped);
  // the dims that still move, by stride, largest first
  std::vector<int> dims;
  for (size_t d = 0; d < shape.size(); d++)
    if (shape[d] > 1 && strides[d] != 0) dims.push_back(static_cast<int>(d));
  std::stable_sort(dims.begin(), dims.end(), [&](int a, int b) { return strides[a] > strides[b]; });
  Shape kept;
  for (size_t d = 0; d < shape.size(); d++)
    if (shape[d] > 1 && strides[d] != 0) kept.push_back(shape[d]);
  g = g.reshape(kept.empty() ? Shape{1} : kept);
  if (!dims.empty()) {
    // dims in ascending order of d give g's axes; permute them into stride order
    std::vector<int> order(dims.size());
    std::vector<int> by_dim = dims;
    std::sort(by_dim.begin(), by_dim.end());
    for (size_t i = 0; i < dims.size(); i++)
      order[i] = static_cast<int>(std::find(by_dim.begin(), by_dim.end(), dims[i]) - by_dim.begin());
    g = g.permute(order);
  }
  std::vector<int64_t> s, len;
  for (int d : dims) s.push_back(strides[d]), len.push_back(shape[d]);
  if (offset < 0) fail("shape", "cannot take the gradient through a view that starts before its buffer");
  if (!non_overlapping(s, len, offset)) return scatter_add(g, len, s, offset, n);
  // Grid axes: axis j steps stride_j, holding stride_{j-1} / stride_j of them; a last axis covers the
  // elements below the smallest stride. The block starts at offset's digits in that grid.
  const int64_t unit = s.empty() ? 1 : s.back();
  s.push_back(1);
  len.push_back(1);
  std::vector<Range> padding;
  int64_t rest = offset;
  Shape grid;
  for (size_t j = 0; j < s.size(); j++) {
    const int64_t axis = j == 0 ? 0 : (j + 1 == s.size() ? unit : s[j - 1] / s[j]);
    const int64_t digit = rest / s[j];
    rest %= s[j];
    const int64_t size = j == 0 ? digit + len[j] : axis;
    padding.emplace_back(digit, size - digit - len[j]);
    grid.push_back(size);
  }
  g = g.reshape(len).pad(padding).reshape({prod(grid)});
  return placed(g, prod(grid), n);
}

}  // namespace

Tensor view_gradient(const Tensor& grad, const ShapeTracker& st, const Shape& base_shape) {
  // an empty view reads no element of its base; the walk below takes every dim of a view to read some
  if (prod(grad.shape()) == 0) return zeros_flat(grad, prod(base_shape)).reshape(base_shape);
  Tensor g = grad;
  const std::vector<View>& views = st.views();
  for (size_t i = views.size(); i-- > 0;) {
    const Shape& below = i == 0 ? base_shape : views[i - 1].shape;
    g = one_view_gradient(g, views[i], prod(below)).reshape(below);
  }
  return g;
}

}  // namespace tr
