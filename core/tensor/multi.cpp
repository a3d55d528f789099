#include "core/tensor/multi.h"

#include <algorithm>

#include "core/runtime/device_name.h"
#include "core/base/error.h"
#include "core/tensor/dims.h"

namespace tr {
namespace {

std::vector<std::string> devices_of(const std::vector<Tensor>& shards) {
  std::vector<std::string> out;
  for (const Tensor& s : shards) out.push_back(s.device());
  return out;
}

// Each device's share of an axis of `size` split over n devices.
int64_t piece(int64_t size, size_t n) { return size / static_cast<int64_t>(n); }

// The bounds of piece i of axis `axis`, the whole of every other dim.
std::vector<std::optional<Range>> piece_bounds(const Tensor& x, int axis, size_t n, size_t i) {
  std::vector<std::optional<Range>> b(x.ndim());
  const int64_t sz = piece(x.shape()[axis], n);
  b[axis] = Range{static_cast<int64_t>(i) * sz, static_cast<int64_t>(i + 1) * sz};
  return b;
}

// Each shard of x moved by `move`, with the same sharding (or the axis given).
Tensor each_shard(const Tensor& x, const std::function<Tensor(const Tensor&)>& move, std::optional<int> axis) {
  std::vector<Tensor> out;
  for (const Tensor& s : x.shards()) out.push_back(move(s));
  return make_multi(out, axis);
}

// The sharded axis, which a movement op must leave where it is; fails with the op's name otherwise.
void keep_axis_whole(const Tensor& x, bool touched, std::string_view op) {
  if (touched)
    fail("shape", "{} of the sharded axis {} of a tensor on {}: it would move elements between devices; gather it "
                  "on one device with .to() first",
         op, *x.shard_axis(), x.device());
}

// The pieces copied to `device` and joined along `axis`, in order.
Tensor gathered(const std::vector<Tensor>& pieces, int axis, const std::string& device) {
  std::vector<Tensor> rest;
  for (size_t i = 1; i < pieces.size(); i++) rest.push_back(pieces[i].to(device));
  return pieces[0].to(device).cat(rest, axis);
}

Tensor combine(Op op, const Tensor& a, const Tensor& b) {
  return op == Op::Sum ? a.add(b) : op == Op::Prod ? a.mul(b) : a.maximum(b);
}

}  // namespace

Tensor make_multi(const std::vector<Tensor>& shards, std::optional<int> axis) {
  if (shards.size() == 1) return shards[0];
  Shape shape = shards[0].shape();
  if (axis) shape[*axis] *= static_cast<int64_t>(shards.size());
  std::vector<LazyRef> srcs;
  for (const Tensor& s : shards) srcs.push_back(s.node());
  return Tensor(make_node(Op::Multi, shards[0].dtype(), shape, multi_device_name(devices_of(shards)), srcs, Sharding{axis}));
}

std::optional<Tensor> replicated_on(const std::string& name, const std::function<Tensor(const std::string&)>& make) {
  const std::vector<std::string> devices = multi_devices(name);
  if (devices.empty()) return std::nullopt;
  std::vector<Tensor> shards;
  for (const std::string& d : devices) shards.push_back(make(d));
  return make_multi(shards, std::nullopt);
}

bool Tensor::is_multi() const { return node()->op == Op::Multi; }

std::vector<Tensor> Tensor::shards() const {
  if (!is_multi()) return {*this};
  std::vector<Tensor> out;
  for (const LazyRef& s : node()->srcs) out.emplace_back(s);
  return out;
}

std::optional<int> Tensor::shard_axis() const {
  return is_multi() ? std::get<Sharding>(node()->arg).axis : std::nullopt;
}

Tensor Tensor::shard(const std::vector<std::string>& devices, std::optional<int> axis) const {
  if (is_multi()) fail("device", "this tensor is already on {}; gather it with .to() before sharding it again", device());
  if (devices.empty()) fail("device", "shard needs at least one device");
  std::vector<std::string> names;
  for (const std::string& d : devices) names.push_back(canonical_device(d));
  if (names.size() == 1) return to(names[0]);
  if (axis) {
    axis = resolve_dim(*axis, ndim());
    if (shape()[*axis] % static_cast<int64_t>(names.size()) != 0)
      fail("shape", "shard: axis {} of size {} does not split evenly over {} devices", *axis, shape()[*axis], names.size());
  }
  // each piece a node of its own (a view's node is not in the graphs that read it), so that gradients
  // reach it; the pieces for other devices copied there
  std::vector<Tensor> shards;
  for (size_t i = 0; i < names.size(); i++)
    shards.push_back((axis ? shrink(piece_bounds(*this, *axis, names.size(), i)) : *this).contiguous().to(names[i]));
  return make_multi(shards, axis);
}

std::optional<Tensor> on_each_device(const std::vector<Tensor>& operands,
                                     const std::function<Tensor(const std::vector<Tensor>&)>& op) {
  const auto multi = std::find_if(operands.begin(), operands.end(), [](const Tensor& x) { return x.is_multi(); });
  if (multi == operands.end()) return std::nullopt;
  std::optional<int> axis;
  for (const Tensor& x : operands) {
    if (x.device() != multi->device())
      fail("device", "operands are on {} and {}; move one with .to() or .shard()", multi->device(), x.device());
    if (!x.shard_axis()) continue;
    if (axis && *axis != *x.shard_axis())
      fail("shape", "operands are sharded on axes {} and {}; shard them alike first", *axis, *x.shard_axis());
    axis = x.shard_axis();
  }
  std::vector<std::vector<Tensor>> split;
  for (const Tensor& x : operands) split.push_back(pieces_along(x, axis));
  std::vector<Tensor> out;
  for (size_t i = 0; i < split[0].size(); i++) {
    std::vector<Tensor> here;
    for (const std::vector<Tensor>& s : split) here.push_back(s[i]);
    out.push_back(op(here));
  }
  return make_multi(out, axis);
}

std::vector<Tensor> pieces_along(const Tensor& x, std::optional<int> axis) {
  const std::vector<Tensor> shards = x.shards();
  if (x.shard_axis() == axis) return shards;
  if (x.shard_axis())
    fail("shape", "a tensor sharded on axis {} is needed on axis {}; gather it with .to() and shard it again",
         *x.shard_axis(), axis ? std::to_string(*axis) : "none (replicated)");
  std::vector<Tensor> out;
  for (size_t i = 0; i < shards.size(); i++) out.push_back(shards[i].shrink(piece_bounds(x, *axis, shards.size(), i)));
  return out;
}

Tensor multi_reduce(const Tensor& x, Op op, const std::vector<int>& axes,
                    const std::function<Tensor(const Tensor&)>& reduce_piece) {
  const std::optional<int> axis = x.shard_axis();
  std::vector<Tensor> partials;
  for (const Tensor& s : x.shards()) partials.push_back(reduce_piece(s));
  if (!axis || std::find(axes.begin(), axes.end(), *axis) == axes.end()) return make_multi(partials, axis);
  // All-reduce: every device combines all the partials, copied to it, in the same order, so that
  // every copy of the result has the same bits.
  std::vector<Tensor> totals;
  for (const Tensor& here : partials) {
    Tensor total = partials[0].to(here.device());
    for (size_t i = 1; i < partials.size(); i++) total = combine(op, total, partials[i].to(here.device()));
    totals.push_back(total);
  }
  return make_multi(totals, std::nullopt);
}

Tensor multi_reshape(const Tensor& x, const Shape& shape) {
  const std::optional<int> axis = x.shard_axis();
  if (!axis) return each_shard(x, [&](const Tensor& s) { return s.reshape(shape); }, axis);
  // The sharded axis survives when some new dim starts where it starts (the product of the dims
  // before it is the same) and splits as evenly: then each device's elements stay its own.
  const auto n = static_cast<int64_t>(x.shards().size());
  int64_t before = 1;
  for (int d = 0; d < *axis; d++) before *= x.shape()[d];
  std::optional<int> to;
  int64_t acc = 1;
  for (size_t d = 0; d < shape.size(); d++) {
    if (acc == before) to = static_cast<int>(d);
    acc *= shape[d];
  }
  if (!to || shape[*to] % n != 0)
    fail("shape", "reshape {} -> {} would move elements between the devices of a tensor sharded on axis {}",
         shape_str(x.shape()), shape_str(shape), *axis);
  Shape each = shape;
  each[*to] /= n;
  return each_shard(x, [&](const Tensor& s) { return s.reshape(each); }, to);
}

Tensor multi_permute(const Tensor& x, const std::vector<int>& order) {
  const std::optional<int> axis = x.shard_axis();
  const std::optional<int> to =
      axis ? std::optional<int>(static_cast<int>(std::find(order.begin(), order.end(), *axis) - order.begin())) : std::nullopt;
  return each_shard(x, [&](const Tensor& s) { return s.permute(order); }, to);
}

Tensor multi_expand(const Tensor& x, const Shape& shape) {
  Shape each = shape;
  if (const std::optional<int> axis = x.shard_axis()) each[*axis] = x.shards()[0].shape()[*axis];
  return each_shard(x, [&](const Tensor& s) { return s.expand(each); }, x.shard_axis());
}

Tensor multi_pad(const Tensor& x, const std::vector<Range>& padding) {
  if (const std::optional<int> axis = x.shard_axis()) keep_axis_whole(x, padding[*axis] != Range{0, 0}, "padding");
  return each_shard(x, [&](const Tensor& s) { return s.pad(padding); }, x.shard_axis());
}

Tensor multi_shrink(const Tensor& x, const std::vector<Range>& bounds) {
  const std::optional<int> axis = x.shard_axis();
  std::vector<std::optional<Range>> each(bounds.begin(), bounds.end());
  if (!axis || bounds[*axis] == Range{0, x.shape()[*axis]}) {
    if (axis) each[*axis] = std::nullopt;
    return each_shard(x, [&](const Tensor& s) { return s.shrink(each); }, axis);
  }
  // Part of the sharded axis: the parts of the pieces it covers, gathered on every device (a whole
  // copy on each), as tinygrad does for one device's piece.
  const std::vector<Tensor> shards = x.shards();
  const int64_t sz = shards[0].shape()[*axis];
  const auto [lo, hi] = bounds[*axis];
  std::vector<Tensor> parts;
  for (int64_t k = lo / sz; k * sz < hi; k++) {
    each[*axis] = Range{std::max(lo, k * sz) - k * sz, std::min(hi, (k + 1) * sz) - k * sz};
    parts.push_back(shards[k].shrink(each));
  }
  std::vector<Tensor> copies;
  for (const Tensor& s : shards) copies.push_back(gathered(parts, *axis, s.device()));
  return make_multi(copies, std::nullopt);
}

Tensor multi_flip(const Tensor& x, const std::vector<bool>& dims) {
  if (const std::optional<int> axis = x.shard_axis()) keep_axis_whole(x, dims[*axis], "a flip");
  std::vector<int> axes;
  for (size_t d = 0; d < dims.size(); d++)
    if (dims[d]) axes.push_back(static_cast<int>(d));
  return each_shard(x, [&](const Tensor& s) { return s.flip(axes); }, x.shard_axis());
}

Tensor multi_to(const Tensor& x, const std::string& device) {
  if (!multi_devices(device).empty())
    fail("device", "a tensor on {} moves to one device with .to(); {} is several", x.device(), device);
  const std::vector<Tensor> shards = x.shards();
  const std::optional<int> axis = x.shard_axis();
  if (!axis) {
    const auto here = std::find_if(shards.begin(), shards.end(), [&](const Tensor& s) { return s.device() == device; });
    return here != shards.end() ? *here : shards[0].to(device);
  }
  return gathered(shards, *axis, device);
}

Tensor multi_assigned(const Tensor& x, const Tensor& value) {
  if (x.shard_axis() != value.shard_axis())
    fail("shape", "assign to a tensor on {} needs a value split the same way (axis {}), not {}", x.device(),
         x.shard_axis() ? std::to_string(*x.shard_axis()) : "none: replicated",
         value.shard_axis() ? fmt::format("axis {}", *value.shard_axis()) : "replicated");
  const std::vector<Tensor> targets = x.shards(), values = value.shards();
  std::vector<Tensor> out;
  for (size_t i = 0; i < targets.size(); i++) {
    const Tensor t(targets[i].node());
    t.assign(values[i]);
    out.push_back(t);
  }
  return make_multi(out, x.shard_axis());
}

}  // namespace tr
