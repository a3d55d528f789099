// The gradient through a VIEW. A tracker is a stack of views, each reading the one below as a
// contiguous buffer, so the gradient goes down the stack one view at a time. One view reads element
// offset + sum(i_k * stride_k) of its flat source where its mask holds; its gradient scatters back
// there: masked-out elements drop out (shrink), broadcast dims sum (stride 0), reversed dims flip
// back, and what remains is a strided block of the source, rebuilt with pads and a reshape.
#include <algorithm>
#include <numeric>

#include "core/error.h"
#include "core/grad/gradient.h"

namespace tr {
namespace {

Tensor zeros_flat(const Tensor& like, int64_t n) { return Tensor::scalar_like(like, 0.0).reshape({1}).expand({n}); }

// A view that reads some source elements more than once (overlapping windows, as unfold makes) has
// no strided block to pad back into. Each source element's gradient is then the sum of g where the
// view reads it, found by reading 1 + the source's flat index through the same view (0 where masked):
// a reduce over the view's elements for each source element.
Tensor overlapping_view_gradient(const Tensor& g, const View& view, int64_t n) {
  const int64_t m = prod(view.shape);
  const Tensor positions = Tensor::arange(int64_t{1}, n + 1, int64_t{1}, DType::Int64, g.device());
  const Tensor read = Tensor(make_view(positions.node(), ShapeTracker({view}))).reshape({m, 1});
  const Tensor hit = read.eq(positions.reshape({1, n}));
  return hit.where(g.reshape({m, 1}), Tensor::scalar_like(g, 0.0)).sum(std::vector<int>{0});
}

// g has view.shape; returns the gradient of the flat source of n elements, shape (n,).
Tensor one_view_gradient(Tensor g, const View& view, int64_t n) {
  const Tensor whole = g;
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
  // Grid axes: axis j steps stride_j, holding stride_{j-1} / stride_j of them; a last axis covers the
  // elements below the smallest stride. The block starts at offset's digits in that grid.
  std::vector<int64_t> s, len;
  for (int d : dims) s.push_back(strides[d]), len.push_back(shape[d]);
  const int64_t unit = s.empty() ? 1 : s.back();
  s.push_back(1);
  len.push_back(1);
  if (offset < 0) fail("shape", "cannot take the gradient through a view that starts before its buffer");
  std::vector<Range> padding;
  int64_t rest = offset;
  Shape grid;
  for (size_t j = 0; j < s.size(); j++) {
    const int64_t axis = j == 0 ? 0 : (j + 1 == s.size() ? unit : s[j - 1] / s[j]);
    if (j > 0 && s[j - 1] % s[j] != 0) return overlapping_view_gradient(whole, view, n);
    const int64_t digit = rest / s[j];
    rest %= s[j];
    const int64_t size = j == 0 ? digit + len[j] : axis;
    if (digit + len[j] > size) return overlapping_view_gradient(whole, view, n);
    padding.emplace_back(digit, size - digit - len[j]);
    grid.push_back(size);
  }
  g = g.reshape(len).pad(padding).reshape({prod(grid)});
  const int64_t total = prod(grid);
  if (total > n) return g.shrink({Range{0, n}});
  if (total < n) return g.pad({Range{0, n - total}});
  return g;
}

}  // namespace

Tensor view_gradient(const Tensor& grad, const ShapeTracker& st, const Shape& base_shape) {
  Tensor g = grad;
  const std::vector<View>& views = st.views();
  for (size_t i = views.size(); i-- > 0;) {
    const Shape& below = i == 0 ? base_shape : views[i - 1].shape;
    g = one_view_gradient(g, views[i], prod(below)).reshape(below);
  }
  return g;
}

}  // namespace tr
