// Tensor handles: broadcasting, promotion, realization and reading values back.
#include "core/tensor/tensor.h"

#include <algorithm>
#include <mutex>

#include "core/base/context.h"
#include "core/runtime/device.h"
#include "core/runtime/device_name.h"
#include "core/base/error.h"
#include "core/realize/realize.h"
#include "core/schedule/schedule.h"
#include "core/tensor/multi.h"

namespace tr {

Shape broadcast_shape(const Shape& a, const Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; i++) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) fail("shape", "cannot broadcast {} with {}", shape_str(a), shape_str(b));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

void require_same_device(const Tensor& a, const Tensor& b) {
  if (a.device() != b.device()) fail("device", "operands are on {} and {}; move one with .to()", a.device(), b.device());
}

namespace {

// A broadcast constant or index has no buffer worth keeping: realize the values the view shows.
// A constant or an arange is computed inside the kernels that read it: realized, it gets a buffer of
// its own, and the interned node that every other expression shares stays a constant.
Tensor realizable(const Tensor& x) {
  if (x.is_multi()) {
    std::vector<Tensor> shards;
    for (const Tensor& s : x.shards()) shards.push_back(realizable(s));
    return make_multi(shards, x.shard_axis());
  }
  const Op base_op = base_of(x.node())->op;
  return base_op == Op::Const || base_op == Op::Arange ? x.contiguous() : x;
}

// Each tensor made realizable, and the bases to compute: one per device for a tensor on several.
std::vector<LazyRef> outputs(std::vector<Tensor>& xs) {
  std::vector<LazyRef> outs;
  for (Tensor& x : xs) {
    x = realizable(x);
    for (const Tensor& s : x.shards()) outs.push_back(base_of(s.node()));
  }
  return outs;
}

}  // namespace

namespace {

// Weak references to every state made; swept of dead ones whenever it has doubled since the last sweep.
struct Registry {
  std::mutex mutex;
  std::vector<std::weak_ptr<TensorState>> states;
  size_t swept_size = 0;
};

Registry& registry() {
  static Registry r;
  return r;
}

void track(const std::shared_ptr<TensorState>& state) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.states.push_back(state);
  if (r.states.size() < 2 * r.swept_size + 64) return;
  std::erase_if(r.states, [](const std::weak_ptr<TensorState>& w) { return w.expired(); });
  r.swept_size = r.states.size();
}

}  // namespace

std::vector<Tensor> Tensor::live() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  std::vector<Tensor> out;
  for (const std::weak_ptr<TensorState>& w : r.states)
    if (std::shared_ptr<TensorState> s = w.lock()) out.push_back(Tensor(std::move(s)));
  return out;
}

Tensor::Tensor(LazyRef n) : state_(std::make_shared<TensorState>(TensorState{std::move(n), std::nullopt})) {
  track(state_);
  if (node()->depth < kMaxLazyDepth) return;
  realize();
  const LazyRef base = base_of(node());
  base->depth = 0;
  node()->depth = node() == base ? 0 : 1;
}

Tensor Tensor::broadcast_to(const Shape& target) const {
  if (shape() == target) return *this;
  if (target.size() < shape().size()) fail("shape", "cannot broadcast {} to {}", shape_str(shape()), shape_str(target));
  Shape padded(target.size() - shape().size(), 1);
  padded.insert(padded.end(), shape().begin(), shape().end());
  return reshape(padded).expand(target);
}

bool Tensor::realized() const {
  if (is_multi()) {
    const std::vector<Tensor> s = shards();
    return std::all_of(s.begin(), s.end(), [](const Tensor& x) { return x.realized(); });
  }
  return base_of(node())->buffer != nullptr;
}

std::pair<Tensor, Tensor> Tensor::broadcasted(const Tensor& x, const Tensor& y) {
  const DType t = promote(x.dtype(), y.dtype());
  const Shape shape = broadcast_shape(x.shape(), y.shape());
  return {x.cast(t).broadcast_to(shape), y.cast(t).broadcast_to(shape)};
}

Tensor Tensor::unary(Op op) const {
  if (const auto m = on_each_device({*this}, [&](const std::vector<Tensor>& x) { return x[0].unary(op); })) return *m;
  return Tensor(make_node(op, dtype(), shape(), device(), {node()}));
}

Tensor Tensor::binary(Op op, const Tensor& y) const {
  require_same_device(*this, y);
  if (const auto m = on_each_device({*this, y}, [&](const std::vector<Tensor>& x) { return x[0].binary(op, x[1]); })) return *m;
  const DType out = is_comparison(op) ? DType::Bool : dtype();
  return Tensor(make_node(op, out, shape(), device(), {node(), y.node()}));
}

Tensor Tensor::cast(DType t) const {
  if (t == dtype()) return *this;
  if (const auto m = on_each_device({*this}, [&](const std::vector<Tensor>& x) { return x[0].cast(t); })) return *m;
  return Tensor(make_node(Op::Cast, t, shape(), device(), {node()}));
}

Tensor Tensor::move(const ShapeTracker& st) const { return Tensor(make_view(node(), st)); }

Tensor Tensor::contiguous() const {
  if (const auto m = on_each_device({*this}, [&](const std::vector<Tensor>& x) { return x[0].contiguous(); })) return *m;
  const LazyRef base = base_of(node());
  if (!node()->is_view() && base->op != Op::Const && base->op != Op::Arange) {
    base->forced = true;
    return *this;
  }
  const LazyRef c = make_node(Op::Contiguous, dtype(), shape(), device(), {node()});
  c->forced = true;
  return Tensor(c);
}

Tensor Tensor::to(const std::string& dev) const {
  if (std::vector<std::string> several = multi_devices(dev); !several.empty()) {
    for (std::string& d : several) d = canonical_device(d);
    if (multi_device_name(several) == device()) return *this;
    return is_multi() ? multi_to(*this, dev) : shard(several);
  }
  const std::string target = canonical_device(dev);
  tr::device(target);  // fails here, with the reason, when the device cannot open
  if (target == device()) return *this;
  if (is_multi()) return multi_to(*this, target);
  const Tensor src = contiguous();
  return Tensor(make_node(Op::Copy, dtype(), shape(), target, {src.node()}));
}

Tensor& Tensor::realize() {
  realize_together({*this});
  return *this;
}

void Tensor::realize_together(const std::vector<Tensor>& xs) {
  std::vector<Tensor> copies = xs;
  realize_all(copies);
  // a broadcast constant became its own buffer: the tensor is that buffer from now on
  for (size_t i = 0; i < xs.size(); i++) xs[i].state_->node = copies[i].node();
}

HostData Tensor::data() const {
  if (numel() == 0) return HostData(dtype(), 0);
  if (is_multi()) return multi_to(*this, shards()[0].device()).data();
  // A view that reads its base's buffer in order (a reshape) needs no copy kernel: the buffer is its values.
  const bool in_order = !node()->is_view() || (node()->st().contiguous() && numel() == tr::prod(base_of(node())->shape));
  Tensor t = in_order ? Tensor(base_of(node())) : contiguous();
  t.realize();  // first: a tensor too large for a kernel is refused before its host copy is allocated
  HostData out(dtype(), numel());
  const Buffer& buf = *base_of(t.node())->buffer;
  read_back(out.bytes.data(), buf);
  return out;
}

ConstValue Tensor::item() const {
  if (numel() != 1) fail("value", "item() needs a tensor of one element, not shape {}", shape_str(shape()));
  return data().get(0);
}

Tensor where(const Tensor& c, const Tensor& a, const Tensor& b) { return c.where(a, b); }

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol) {
  // numpy compares in float64; here only where float32 would round an operand (float64 and integers
  // wider than 16 bits), since not every device has float64 (Metal)
  const DType common = promote(a.dtype(), b.dtype());
  const DType t = common == DType::Float64 || (!is_float(common) && itemsize(common) > 2) ? DType::Float64
                                                                                            : DType::Float32;
  const auto [x, y] = Tensor::broadcasted(a.cast(t), b.cast(t));
  // numpy's rule: |x - y| <= atol + rtol * |y|, equal infinities are close, nan is never close
  const Tensor tol = Tensor::scalar_like(y, atol).add(y.abs().mul(Tensor::scalar_like(y, rtol)));
  const Tensor close = x.sub(y).abs().le(tol).logical_or(x.eq(y));
  return !std::get<bool>(close.logical_not().max().item());
}

int count_kernels(const std::vector<Tensor>& xs) {
  std::vector<Tensor> copies = xs;
  const auto items = create_schedule(outputs(copies));
  return static_cast<int>(std::count_if(items.begin(), items.end(),
                                        [](const ScheduleItem& i) { return i.kind == ScheduleItem::Kind::Kernel; }));
}

void realize_all(std::vector<Tensor>& xs) { tr::realize(outputs(xs)); }

}  // namespace tr
