// Convolution and pooling as tinygrad 0.14 builds them: the sliding windows of the input are a view
// (repeat, shrink, reshape and permute: pool()), a convolution multiplies the windows by the weight and
// sums, and a pooling reduces the windows with max or a mean. Nothing here is a new primitive, so
// every one fuses with its neighbours and has a gradient through core/grad.
#include <algorithm>

#include "core/base/error.h"
#include "core/tensor/tensor.h"

namespace tr {
namespace {

using Ints = Tensor::Ints;

// Python's ceildiv, right for negative numerators too
int64_t ceildiv(int64_t a, int64_t b) { return -((-a) / b - ((-a) % b != 0 && ((-a) < 0) != (b < 0))); }

// An int (one value) or one value per dim, as tinygrad's make_tuple.
Ints per_dim(const Ints& v, size_t dims, std::string_view what) {
  if (v.size() == 1) return Ints(dims, v[0]);
  if (v.size() != dims) fail("value", "{} needs 1 or {} values, got {}", what, dims, v.size());
  return v;
}

// tinygrad's resolve_pool_pads: 2*dims values, (left, right, top, bottom, ...) with the last dim first.
Ints flat_pads(const Ints& padding, size_t dims) {
  if (padding.size() == 1) return Ints(2 * dims, padding[0]);
  if (padding.size() == 2 * dims) return padding;
  if (padding.size() != dims) {
    fail("value", "padding must be an int or a sequence of length {} or {}, got {} values", dims, 2 * dims,
         padding.size());
  }
  Ints out;
  for (size_t i = dims; i-- > 0;) out.insert(out.end(), {padding[i], padding[i]});
  return out;
}

// The flat pads as (before, after) per spatial dim, the first spatial dim first.
std::vector<Range> grouped(const Ints& flat) {
  std::vector<Range> out;
  for (size_t i = flat.size() / 2; i-- > 0;) out.push_back({flat[2 * i], flat[2 * i + 1]});
  return out;
}

// x padded on its last spatial dims with value (negative pads shrink).
Tensor pad_spatial(const Tensor& x, const Ints& flat, ConstValue value) {
  std::vector<Range> p(static_cast<size_t>(x.ndim()) - flat.size() / 2, Range{0, 0});
  for (const Range& r : grouped(flat)) {
    const int64_t size = x.shape()[p.size()];
    if (size + std::min<int64_t>(r.first, 0) + std::min<int64_t>(r.second, 0) < 0)
      fail("shape", "padding ({}, {}) crops more than the {} elements of dim {} of shape {}", r.first, r.second, size,
           p.size(), shape_str(x.shape()));
    p.push_back(r);
  }
  return x.pad(p, value);
}

void check_spatial(const Tensor& x, size_t dims, std::string_view what) {
  if (dims == 0) fail("value", "{} needs a kernel of at least one dim", what);
  if (static_cast<size_t>(x.ndim()) < dims)
    fail("shape", "{} of a {}-d kernel needs at least {} dims, not shape {}", what, dims, dims, shape_str(x.shape()));
}

// tinygrad's _apply_ceil_mode: more padding after each dim so that the last partial window is kept.
Ints ceil_mode_pads(const Tensor& x, const Ints& flat, const Ints& k, const Ints& s, const Ints& d) {
  std::vector<Range> g = grouped(flat);
  const size_t n = k.size();
  for (size_t i = 0; i < n; i++) {
    const int64_t in = x.shape()[x.shape().size() - n + i];
    const auto [before, after] = g[i];
    const int64_t out = ceildiv(in + before + after - (d[i] * (k[i] - 1) + 1), s[i]) + 1;
    // a window that would start inside the padding after the input is not made
    g[i].second = after + s[i] * (out - 1) + (d[i] * (k[i] - 1) + 1) - (in + before + after) -
                  std::max<int64_t>(s[i] * (out - 1) - (before + in - 1), 0);
  }
  Ints out;
  for (size_t i = n; i-- > 0;) out.insert(out.end(), {g[i].first, g[i].second});
  return out;
}

std::vector<int> last_axes(size_t n) {
  std::vector<int> out;
  for (size_t i = n; i > 0; i--) out.push_back(-static_cast<int>(i));
  return out;
}

}  // namespace

Tensor Tensor::pool(const Ints& k, const Ints& stride, const Ints& dilation) const {
  check_spatial(*this, k.size(), "pooling");
  const size_t n = k.size(), noop = static_cast<size_t>(ndim()) - n;
  const Ints s = per_dim(stride, n, "stride"), d = per_dim(dilation, n, "dilation");
  Ints i(shape().end() - static_cast<std::ptrdiff_t>(n), shape().end()), o, f;
  for (size_t a = 0; a < n; a++) {
    if (k[a] <= 0 || s[a] <= 0 || d[a] <= 0)
      fail("value", "kernel size, stride and dilation must be positive, got {}, {} and {}", k[a], s[a], d[a]);
    if (d[a] * (k[a] - 1) + 1 > i[a]) {
      fail("shape", "kernel size {} (dilation {}) cannot be greater than the input size {} of shape {}", k[a], d[a],
           i[a], shape_str(shape()));
    }
    o.push_back(ceildiv(i[a] - d[a] * (k[a] - 1), s[a]));
    f.push_back(std::max<int64_t>(1, ceildiv(o[a] * s[a] - d[a], i[a])));
  }
  // Repeat each dim k times (and f times over, so that the stride's shrink fits), then read it as k
  // rows of i*f+d: row j starts d*j elements later, which is the dilation; keep o*s of each row and
  // every s-th of those, which is the stride.
  const Shape lead(shape().begin(), shape().begin() + static_cast<std::ptrdiff_t>(noop));
  const auto with_lead = [&](const Shape& tail) {
    Shape out = lead;
    out.insert(out.end(), tail.begin(), tail.end());
    return out;
  };
  const auto keep = [&](const Shape& sizes) {
    std::vector<std::optional<Range>> b(noop, std::nullopt);
    for (const int64_t v : sizes) b.emplace_back(Range{0, v});
    return b;
  };
  Shape reps(noop, 1), cut, rows, strided, split, first;
  for (size_t a = 0; a < n; a++) {
    const int64_t row = i[a] * f[a] + d[a];
    reps.push_back(ceildiv(k[a] * row, i[a]));
    cut.push_back(k[a] * row);
    rows.insert(rows.end(), {k[a], row});
    strided.insert(strided.end(), {k[a], o[a] * s[a]});
    split.insert(split.end(), {k[a], o[a], s[a]});
    first.insert(first.end(), {k[a], o[a], 1});
  }
  Tensor x = repeat(reps).shrink(keep(cut)).reshape(with_lead(rows));
  x = x.shrink(keep(strided)).reshape(with_lead(split)).shrink(keep(first));
  Shape windows;
  for (size_t a = 0; a < n; a++) windows.insert(windows.end(), {k[a], o[a]});
  x = x.reshape(with_lead(windows));
  std::vector<int> order;
  for (size_t a = 0; a < noop; a++) order.push_back(static_cast<int>(a));
  for (size_t a = 0; a < n; a++) order.push_back(static_cast<int>(noop + 2 * a + 1));
  for (size_t a = 0; a < n; a++) order.push_back(static_cast<int>(noop + 2 * a));
  return x.permute(order);
}

Tensor Tensor::conv2d(const Tensor& weight, const std::optional<Tensor>& bias, int64_t groups, const Ints& stride,
                      const Ints& dilation, const Ints& padding, std::optional<DType> dtype) const {
  if (weight.ndim() < 3 || ndim() != weight.ndim()) {
    fail("shape", "conv2d needs an input and a weight of the same number of dims (at least 3), got {} and {}",
         shape_str(shape()), shape_str(weight.shape()));
  }
  if (groups <= 0) fail("value", "groups must be positive, got {}", groups);
  const size_t n = static_cast<size_t>(weight.ndim()) - 2;
  const int64_t bs = shape()[0], cin_all = shape()[1], cout = weight.shape()[0], cin = weight.shape()[1];
  if (groups * cin != cin_all || cout % groups != 0) {
    fail("shape", "input shape {} does not match weight shape {} with groups={} ({} vs {} input channels)",
         shape_str(shape()), shape_str(weight.shape()), groups, groups * cin, cin_all);
  }
  if (bias && (bias->ndim() != 1 || bias->shape()[0] != cout))
    fail("shape", "bias of shape {} does not match {} output channels", shape_str(bias->shape()), cout);
  const Ints hw(weight.shape().begin() + 2, weight.shape().end());
  const Tensor x = pad_spatial(*this, flat_pads(padding, n), int64_t{0}).pool(hw, stride, dilation);
  const int64_t rcout = cout / groups;
  const Shape oyx(x.shape().begin() + 2, x.shape().end() - static_cast<std::ptrdiff_t>(n));
  // (bs, groups, cin, 1, out..., kernel...) expanded over rcout, then cin and the kernel moved last
  Shape grouped_shape{bs, groups, cin, 1}, expanded{bs, groups, cin, rcout};
  for (const Shape* part : {&oyx, &hw}) {
    grouped_shape.insert(grouped_shape.end(), part->begin(), part->end());
    expanded.insert(expanded.end(), part->begin(), part->end());
  }
  std::vector<int> order{0, 1, 3};
  for (size_t a = 0; a < oyx.size(); a++) order.push_back(static_cast<int>(4 + a));
  order.push_back(2);
  for (size_t a = 0; a < n; a++) order.push_back(static_cast<int>(4 + oyx.size() + a));
  const Tensor windows = x.reshape(grouped_shape).expand(expanded).permute(order);
  Shape w_shape{1, groups, rcout};
  w_shape.insert(w_shape.end(), oyx.size(), 1);
  w_shape.push_back(cin);
  w_shape.insert(w_shape.end(), hw.begin(), hw.end());
  Shape out{bs, cout};
  out.insert(out.end(), oyx.begin(), oyx.end());
  const Tensor products = windows.mul(weight.reshape(w_shape));
  const std::vector<int> axes = last_axes(1 + n);
  const Tensor ret = (dtype ? products.sum(axes, true, *dtype) : products.sum(axes, true)).reshape(out);
  if (!bias) return ret;
  Shape b_shape{1, cout};
  b_shape.insert(b_shape.end(), n, 1);
  return ret.add(bias->reshape(b_shape));
}

Tensor Tensor::conv_transpose2d(const Tensor& weight, const std::optional<Tensor>& bias, int64_t groups,
                                const Ints& stride, const Ints& dilation, const Ints& padding,
                                const Ints& output_padding) const {
  if (weight.ndim() < 3 || ndim() != weight.ndim()) {
    fail("shape", "conv_transpose2d needs an input and a weight of the same number of dims (at least 3), got {} and {}",
         shape_str(shape()), shape_str(weight.shape()));
  }
  if (groups <= 0 || weight.shape()[0] % groups != 0)
    fail("value", "groups={} does not divide the weight's {} input channels", groups, weight.shape()[0]);
  const size_t n = static_cast<size_t>(weight.ndim()) - 2;
  const Ints hw(weight.shape().begin() + 2, weight.shape().end());
  // weight (groups*cin, cout, k...) -> (groups, cout, cin, k...) with every kernel dim flipped
  Shape w_shape{groups, weight.shape()[0] / groups};
  w_shape.insert(w_shape.end(), weight.shape().begin() + 1, weight.shape().end());
  std::vector<int> flips;
  for (size_t a = 0; a < n; a++) flips.push_back(static_cast<int>(3 + a));
  const Tensor w = weight.reshape(w_shape).transpose(1, 2).flip(flips).flatten(0, 1);
  const std::vector<Range> pads = grouped(flat_pads(padding, n));
  const Ints s = per_dim(stride, n, "stride"), d = per_dim(dilation, n, "dilation");
  const Ints op = per_dim(output_padding, n, "output_padding");
  for (size_t a = 0; a < n; a++)
    if (s[a] <= 0 || d[a] <= 0) fail("value", "stride and dilation must be positive, got {} and {}", s[a], d[a]);
  Tensor x = *this;
  if (std::any_of(s.begin(), s.end(), [](int64_t v) { return v > 1; })) {
    // stride s: s-1 zeros after each input element, none after the last
    Shape split(shape().begin(), shape().begin() + 2), spread(split), trimmed(split);
    std::vector<Range> gaps(2, Range{0, 0});
    for (size_t a = 0; a < n; a++) {
      const int64_t in = shape()[2 + a];
      split.insert(split.end(), {in, 1});
      gaps.insert(gaps.end(), {Range{0, 0}, Range{0, s[a] - 1}});
      spread.push_back(in * s[a]);
      trimmed.push_back(in * s[a] - (s[a] - 1));
    }
    std::vector<std::optional<Range>> keep(2, std::nullopt);
    for (size_t a = 0; a < n; a++) keep.emplace_back(Range{0, trimmed[2 + a]});
    x = x.reshape(split).pad(gaps).reshape(spread).shrink(keep);
  }
  Ints flat;
  for (size_t a = n; a-- > 0;) {
    const int64_t reach = (hw[a] - 1) * d[a];
    flat.insert(flat.end(), {reach - pads[a].first, reach - pads[a].second + op[a]});
  }
  return x.conv2d(w, bias, groups, {1}, d, flat);
}

namespace {

// How a max pool cuts its input into windows: max_pool2d and its indices share it.
struct MaxPoolWindows {
  size_t n;     // spatial dims
  Ints k, s;    // kernel and stride per spatial dim
  Ints pads;    // flat (before, after) pairs, the ceil mode's included
};

MaxPoolWindows max_pool_windows(const Tensor& x, const Ints& kernel_size, const Ints& stride, const Ints& dilation,
                                const Ints& padding, bool ceil_mode) {
  const size_t n = kernel_size.size();
  check_spatial(x, n, "max_pool2d");
  const Ints k = per_dim(kernel_size, n, "kernel_size"), s = stride.empty() ? k : per_dim(stride, n, "stride");
  Ints pads = flat_pads(padding, n);
  if (ceil_mode) pads = ceil_mode_pads(x, pads, k, s, per_dim(dilation, n, "dilation"));
  return {n, k, s, pads};
}

}  // namespace

Tensor Tensor::max_pool2d(const Ints& kernel_size, const Ints& stride, const Ints& dilation, const Ints& padding,
                          bool ceil_mode) const {
  const MaxPoolWindows w = max_pool_windows(*this, kernel_size, stride, dilation, padding, ceil_mode);
  return pad_spatial(*this, w.pads, dtype_min(dtype())).pool(w.k, w.s, dilation).max(last_axes(w.n));
}

std::pair<Tensor, Tensor> Tensor::max_pool2d_with_indices(const Ints& kernel_size, const Ints& stride,
                                                          const Ints& dilation, const Ints& padding,
                                                          bool ceil_mode) const {
  const MaxPoolWindows w = max_pool_windows(*this, kernel_size, stride, dilation, padding, ceil_mode);
  const size_t n = w.n;
  const Ints &k = w.k, &s = w.s, &pads = w.pads;
  const std::vector<int> axes = last_axes(n);
  const Tensor windows = pad_spatial(*this, pads, dtype_min(dtype())).pool(k, s, dilation);
  const Tensor maxima = windows.max(axes);
  // Each spatial position numbered from the end (size for the first, 1 for the last): the largest
  // number among a window's maxima is its first maximum, and size minus it is that one's flat index.
  const Shape spatial(shape().end() - static_cast<std::ptrdiff_t>(n), shape().end());
  const int64_t size = tr::prod(spatial);
  const Tensor numbers = arange(size, int64_t{0}, int64_t{-1}, DType::Int32, device()).reshape(spatial);
  const Tensor at_max = windows.eq(windows.max(axes, true));
  const Tensor picked = at_max.mul(pad_spatial(numbers, pads, dtype_min(DType::Int32)).pool(k, s, dilation)).max(axes);
  return {maxima, scalar_like(picked, size).sub(picked)};
}

Tensor Tensor::max_unpool2d(const Tensor& indices, const Ints& kernel_size, const Ints& stride, const Ints& dilation,
                            const Ints& padding, const Ints& output_size) const {
  if (ndim() < 3) fail("shape", "max_unpool2d needs (batch, channels, spatial...), not shape {}", shape_str(shape()));
  if (!is_int(indices.dtype())) fail("type", "max_unpool2d's indices must be an integer tensor, not {}", name(indices.dtype()));
  if (indices.shape() != shape())
    fail("shape", "max_unpool2d's indices of shape {} do not match the values' {}", shape_str(indices.shape()), shape_str(shape()));
  const size_t n = static_cast<size_t>(ndim()) - 2;
  Ints out;
  if (output_size.empty()) {
    // the input size that max_pool2d's arguments map to this output size
    const Ints k = per_dim(kernel_size, n, "kernel_size"), d = per_dim(dilation, n, "dilation");
    const Ints s = stride.empty() ? k : per_dim(stride, n, "stride");
    const std::vector<Range> p = grouped(flat_pads(padding, n));
    for (size_t a = 0; a < n; a++)
      out.push_back((shape()[2 + a] - 1) * s[a] - (p[a].first + p[a].second) + d[a] * (k[a] - 1) + 1);
  } else {
    if (output_size.size() < n) fail("value", "output_size needs {} spatial sizes, got {}", n, output_size.size());
    out.assign(output_size.end() - static_cast<std::ptrdiff_t>(n), output_size.end());
  }
  for (const int64_t v : out)
    if (v < 0) fail("value", "max_unpool2d's output size {} is negative", v);
  const int64_t bs = shape()[0], c = shape()[1], total = tr::prod(out);
  const Tensor flat_idx = indices.reshape({bs, c, 1, -1});
  const Tensor slots = arange(int64_t{0}, total, int64_t{1}, indices.dtype(), device()).reshape({total, 1});
  const Tensor placed = flat_idx.eq(slots).where(reshape({bs, c, 1, -1}), scalar_like(*this, int64_t{0}));
  Shape result{bs, c};
  result.insert(result.end(), out.begin(), out.end());
  return placed.sum(std::vector<int>{3}).reshape(result);
}

Tensor Tensor::avg_pool2d(const Ints& kernel_size, const Ints& stride, const Ints& dilation, const Ints& padding,
                          bool ceil_mode, bool count_include_pad) const {
  const size_t n = kernel_size.size();
  check_spatial(*this, n, "avg_pool2d");
  const Ints k = per_dim(kernel_size, n, "kernel_size"), s = stride.empty() ? k : per_dim(stride, n, "stride");
  const std::vector<int> axes = last_axes(n);
  const Ints reg = flat_pads(padding, n);
  const Ints pads = ceil_mode ? ceil_mode_pads(*this, reg, k, s, per_dim(dilation, n, "dilation")) : reg;
  const auto windows = [&](const Tensor& x, const Ints& p) { return pad_spatial(x, p, 0.0).pool(k, s, dilation); };
  if (!count_include_pad) return windows(*this, pads).sum(axes).div(windows(ones_like(), pads).sum(axes));
  if (!ceil_mode) return windows(*this, pads).mean(axes);
  // the padding that ceil_mode adds is not counted; the padding asked for is
  Ints extra;
  for (size_t i = 0; i < pads.size(); i++) extra.push_back(pads[i] - reg[i]);
  const Tensor counted = pad_spatial(*this, reg, 0.0).ones_like();
  return windows(*this, pads).sum(axes).div(windows(counted, extra).sum(axes));
}

}  // namespace tr
