// Reductions. The primitive reduce keeps reduced axes as size 1; keepdim=False reshapes them away.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/tensor/tensor.h"
#include "core/tensor/multi.h"

namespace tr {
namespace {

int resolve_axis(int axis, int ndim) {
  const int n = std::max(ndim, 1);
  if (axis < -n || axis >= n) fail("index", "axis {} is out of range for a tensor of {} dims", axis, ndim);
  return axis < 0 ? axis + n : axis;
}

std::vector<int> resolve_axes(const Axes& axis, int ndim) {
  std::vector<int> out;
  if (!axis) {
    for (int i = 0; i < ndim; i++) out.push_back(i);
    return out;
  }
  for (int a : *axis) {
    const int r = resolve_axis(a, ndim);
    if (std::find(out.begin(), out.end(), r) != out.end()) fail("index", "axis {} is repeated", a);
    out.push_back(r);
  }
  std::sort(out.begin(), out.end());
  return out;
}

ConstValue identity(Op op, DType t) {
  if (op == Op::Sum) return int64_t{0};
  if (op == Op::Prod) return int64_t{1};
  if (t == DType::Bool) return false;
  if (is_float(t)) return -std::numeric_limits<double>::infinity();
  if (is_unsigned(t)) return int64_t{0};
  return wrap_to(t, std::numeric_limits<int64_t>::min() >> (64 - 8 * itemsize(t)));
}

int64_t reduced_count(const Shape& shape, const std::vector<int>& axes) {
  int64_t n = 1;
  for (int a : axes) n *= shape[a];
  return n;
}

// A full reduce on a device whose cores combine their parts in one kernel (the CPU's) stays one
// kernel up to 2^24 elements, as far as a float32 accumulator counts exactly even if it were the only
// one; tinygrad splits it in two steps, which the peer check's tolerance covers.
bool whole_in_one_kernel(const Tensor& x, const std::vector<int>& axes, int64_t out_numel) {
  return out_numel == 1 && !axes.empty() && x.numel() <= (int64_t{1} << 24) && cores_combine(x.device());
}

// The axis to split a long reduce on, and into how many parts; nothing when it is short. An axis the
// input really walks goes first; a broadcast one serves too, since a float sum in one accumulator stops
// growing at 2^24 and the parts keep its error that of a sum in pieces.
std::optional<std::pair<int, int64_t>> split_axis(const Tensor& x, const std::vector<int>& axes, int64_t out_numel) {
  if (axes.empty() || x.numel() / std::max<int64_t>(out_numel, 1) < 32768 || whole_in_one_kernel(x, axes, out_numel))
    return std::nullopt;
  const int64_t limit = std::min<int64_t>(4096, (int64_t{1} << 22) / std::max<int64_t>(out_numel, 1));
  const ShapeTracker st = x.node()->st();
  for (const bool broadcast : {false, true})
    for (int a : axes) {
      if ((st.real_stride(a) == 0) != broadcast) continue;
      for (int64_t parts = limit; parts >= 8; parts--)
        if (x.shape()[a] % parts == 0) return std::make_pair(a, parts);
    }
  return std::nullopt;
}

// A reduce longer than kLongReduce per output whose axes no part count divides: its longest axis,
// padded with the identity up to a multiple of 256, so that split_axis can cut it.
constexpr int64_t kLongReduce = int64_t{1} << 16;
std::optional<int> axis_to_pad(const Tensor& x, const std::vector<int>& axes, int64_t out_numel) {
  if (axes.empty() || x.numel() / std::max<int64_t>(out_numel, 1) < kLongReduce || whole_in_one_kernel(x, axes, out_numel))
    return std::nullopt;
  int longest = axes[0];
  for (int a : axes)
    if (x.shape()[a] > x.shape()[longest]) longest = a;
  return x.shape()[longest] >= 256 && x.shape()[longest] % 256 != 0 ? std::optional<int>(longest) : std::nullopt;
}

}  // namespace

Tensor Tensor::reduce(Op op, const Axes& axis, bool keepdim) const {
  const std::vector<int> axes = ndim() == 0 ? std::vector<int>{} : resolve_axes(axis, ndim());
  if (axis && ndim() == 0)
    for (int a : *axis) resolve_axis(a, 0);
  Shape kept = shape();
  for (int a : axes) kept[a] = 1;
  Tensor ret = *this;
  if (is_multi()) {
    ret = multi_reduce(*this, op, axes, [&](const Tensor& s) { return s.reduce(op, axes, true); });
  } else if (reduced_count(shape(), axes) == 0) {
    // The reduce's identity, read from a padding of the empty axes rather than made as a constant, so
    // that the tensor stays in the graph, as it does in tinygrad's: a gradient reaches it (an empty one)
    // and backward() fills its grad. A view is read through its own node, which a padding would skip.
    std::vector<Range> padding(ndim(), Range{0, 0});
    for (int a : axes)
      if (shape()[a] == 0) padding[a].second = 1;
    return (node()->is_view() ? contiguous() : *this).pad(padding, identity(op, dtype())).reduce(op, axes, keepdim);
  } else if (const auto split = split_axis(*this, axes, tr::prod(kept)); !split && axis_to_pad(*this, axes, tr::prod(kept))) {
    const int a = *axis_to_pad(*this, axes, tr::prod(kept));
    std::vector<Range> padding(ndim(), Range{0, 0});
    padding[a].second = (shape()[a] + 255) / 256 * 256 - shape()[a];
    return pad(padding, identity(op, dtype())).reduce(op, axes, keepdim);
  } else if (split) {
    // A long reduce to few outputs runs in two steps, as tinygrad's split_reduceop does, so that the
    // first step has enough outputs to spread over every core.
    // The first step reduces everything but `parts` pieces of one axis; the second, those pieces.
    const auto [axis, parts] = *split;
    Shape two = shape();
    two[axis] = shape()[axis] / parts;
    two.insert(two.begin() + axis, parts);
    std::vector<int> first;
    for (int a : axes) first.push_back(a < axis ? a : a + 1);
    Shape partial = kept;
    partial[axis] = parts;
    return reshape(two).reduce(op, first, true).reshape(partial).reduce(op, axes, keepdim);
  } else if (!axes.empty()) {
    ret = Tensor(make_node(op, dtype(), kept, device(), {node()}, axes));
  }
  if (keepdim) return ret;
  Shape out;
  for (int i = 0; i < ndim(); i++)
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) out.push_back(shape()[i]);
  return ret.reshape(out);
}

Tensor Tensor::sum(const Axes& axis, bool keepdim) const {
  const Tensor r = cast(sum_acc_dtype(dtype())).reduce(Op::Sum, axis, keepdim);
  return r.cast(sum_dtype(dtype()));
}
// tinygrad multiplies in the tensor's own dtype, unlike sum.
Tensor Tensor::prod(const Axes& axis, bool keepdim) const { return reduce(Op::Prod, axis, keepdim); }
Tensor Tensor::sum(const Axes& axis, bool keepdim, DType acc) const { return cast(acc).reduce(Op::Sum, axis, keepdim); }
Tensor Tensor::prod(const Axes& axis, bool keepdim, DType acc) const { return cast(acc).reduce(Op::Prod, axis, keepdim); }
Tensor Tensor::max(const Axes& axis, bool keepdim) const { return reduce(Op::ReduceMax, axis, keepdim); }
Tensor Tensor::min(const Axes& axis, bool keepdim) const { return inverse().max(axis, keepdim).inverse(); }

Tensor Tensor::mean(const Axes& axis, bool keepdim) const {
  const DType out = is_float(dtype()) ? dtype() : DType::Float32;
  const int64_t n = reduced_count(shape(), ndim() ? resolve_axes(axis, ndim()) : std::vector<int>{});
  const Tensor s = cast(sum_acc_dtype(dtype())).sum(axis, keepdim);
  return s.div(scalar_like(s, static_cast<int64_t>(n))).cast(out);
}

Tensor Tensor::var(const Axes& axis, bool keepdim, double correction) const {
  const int64_t n = reduced_count(shape(), ndim() ? resolve_axes(axis, ndim()) : std::vector<int>{});
  const Tensor squares = sub(mean(axis, true)).square();
  const Tensor s = squares.sum(axis, keepdim);
  return s.div(scalar_like(s, std::max(0.0, static_cast<double>(n) - correction)));
}

Tensor Tensor::std(const Axes& axis, bool keepdim, double correction) const {
  return var(axis, keepdim, correction).sqrt();
}

Tensor Tensor::argmax(std::optional<int> axis, bool keepdim) const {
  if (!axis || ndim() == 0) return flatten().argmax(0, false);  // a 0-dim tensor flattens to one element
  const int a = resolve_axis(*axis, ndim());
  const int64_t n = shape()[a];
  const Tensor is_max = eq(max(std::vector<int>{a}, true));
  Shape idx_shape(ndim() - a, 1);
  idx_shape[0] = n;
  // the first maximum wins: count down from n so that the earliest index has the largest weight
  const Tensor weights = arange(n, int64_t{0}, int64_t{-1}, DType::Int32, device()).reshape(idx_shape);
  const Tensor picked = is_max.cast(DType::Int32).mul(weights).max(std::vector<int>{a}, keepdim);
  return scalar_like(picked, n).sub(picked).cast(DType::Int32);
}

Tensor Tensor::argmin(std::optional<int> axis, bool keepdim) const { return inverse().argmax(axis, keepdim); }

namespace {
// x - max(x) along axis, in dtype where given (tinygrad's _softmax)
Tensor shifted_for_softmax(const Tensor& t, int axis, std::optional<DType> dtype) {
  const Tensor x = t.cast(least_upper_float(t.dtype()));
  const Tensor m = x.sub(x.max(std::vector<int>{axis}, true));
  return dtype ? m.cast(*dtype) : m;
}
}  // namespace

Tensor Tensor::softmax(int axis, std::optional<DType> dtype) const {
  const Tensor e = shifted_for_softmax(*this, axis, dtype).exp();
  return e.div(e.sum(std::vector<int>{axis}, true));
}

Tensor Tensor::log_softmax(int axis, std::optional<DType> dtype) const {
  const Tensor m = shifted_for_softmax(*this, axis, dtype);
  return m.sub(m.exp().sum(std::vector<int>{axis}, true).log());
}

Tensor Tensor::logsumexp(const Axes& axis, bool keepdim) const {
  const Tensor m = max(axis, true);
  const Tensor s = sub(m).exp().sum(axis, keepdim).log();
  if (keepdim) return s.add(m);
  return s.add(m.reshape(s.shape()));
}

}  // namespace tr
