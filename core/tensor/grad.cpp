// Tensor's gradients, detach and assign, with tinygrad 0.14's semantics (core/grad does the work).
#include <algorithm>
#include <set>
#include <unordered_set>

#include "core/base/error.h"
#include "core/grad/gradient.h"
#include "core/realize/realize.h"
#include "core/tensor/tensor.h"
#include "core/tensor/multi.h"

namespace tr {
namespace {

Tensor seed_for(const Tensor& root, const std::optional<Tensor>& seed) {
  if (!is_float(root.dtype())) fail("type", "only float tensors have gradients, not {}", name(root.dtype()));
  if (seed) {
    if (seed->shape() != root.shape()) {
      fail("shape", "the gradient has shape {}, the tensor {}", shape_str(seed->shape()), shape_str(root.shape()));
    }
    return seed->cast(root.dtype());
  }
  if (!root.shape().empty()) {
    fail("shape", "backward needs a scalar (one value, shape ()), not shape {}; reduce it first, e.g. .sum()",
         shape_str(root.shape()));
  }
  return Tensor::full({}, 1.0, root.dtype(), root.device());
}

// A new leaf node that reads buffer: no sources, so gradients and graph walks stop at it.
LazyRef leaf_of(const Tensor& realized) {
  const LazyRef base = base_of(realized.node());
  return make_leaf(base->buffer, base->dtype, base->shape, base->device);
}

// The gradient of a tensor on several devices: a sharded one's is each shard's. A replicated one is one
// value held on every device: its gradient is the sum of what reaches each copy, except the copies
// made from another of its copies (shard(), to()), whose gradients have flowed into that one already;
// the sum is then copied to every device.
Tensor multi_gradient(const Tensor& t, const std::map<const LazyNode*, Tensor>& grads) {
  const auto grad_of = [&](const Tensor& s) {
    const auto g = grads.find(s.node().get());
    return g != grads.end() ? g->second : s.zeros_like();
  };
  const std::vector<Tensor> shards = t.shards();
  std::vector<Tensor> out;
  if (t.shard_axis()) {
    for (const Tensor& s : shards) out.push_back(grad_of(s));
    return make_multi(out, t.shard_axis());
  }
  std::set<const LazyNode*> held;
  for (const Tensor& s : shards) held.insert(s.node().get());
  Tensor total = grad_of(shards[0]);
  for (size_t i = 1; i < shards.size(); i++) {
    const LazyNode& n = *shards[i].node();
    if (n.op == Op::Copy && !n.srcs.empty() && held.contains(base_of(n.srcs[0]).get())) continue;
    total = total.add(grad_of(shards[i]).to(shards[0].device()));
  }
  for (const Tensor& s : shards) out.push_back(total.to(s.device()));
  return make_multi(out, std::nullopt);
}

}  // namespace

std::vector<Tensor> Tensor::gradient(const std::vector<Tensor>& targets, const std::optional<Tensor>& seed) const {
  // a tensor on several devices is its shards in the graph: each gets its gradient on its device
  std::vector<LazyRef> nodes;
  for (const Tensor& t : targets) {
    if (!is_float(t.dtype())) fail("type", "only float tensors have gradients, not {}", name(t.dtype()));
    for (const Tensor& s : t.shards()) nodes.push_back(s.node());
  }
  const std::map<const LazyNode*, Tensor> grads = compute_gradient(node(), seed_for(*this, seed), nodes);
  std::vector<Tensor> out;
  for (const Tensor& t : targets) {
    if (t.is_multi()) {
      out.push_back(multi_gradient(t, grads));
      continue;
    }
    const auto g = grads.find(t.node().get());
    // operations on a view read through its base, so the view's own node is never in a graph
    if (g == grads.end() && t.node()->is_view()) {
      fail("value", "a tensor of shape {} that is a view (of a constant, or made by a movement op) is not in the "
                    "graph itself; realize it where it is made (x = zeros(3).realize()) to give it a gradient",
           shape_str(t.shape()));
    }
    out.push_back(g != grads.end() ? g->second : t.zeros_like());
  }
  return out;
}

void Tensor::backward(const std::optional<Tensor>& seed) const {
  std::unordered_set<const LazyNode*> in_graph;
  for (const LazyRef& n : toposort(node())) in_graph.insert(n.get());
  std::vector<Tensor> targets;
  for (const Tensor& t : live()) {
    const std::vector<Tensor> shards = t.shards();
    if (is_float(t.dtype()) && std::any_of(shards.begin(), shards.end(), [&](const Tensor& s) { return in_graph.contains(s.node().get()); }))
      targets.push_back(t);
  }
  const std::vector<Tensor> grads = gradient(targets, seed);
  for (size_t i = 0; i < targets.size(); i++) {
    const std::optional<Tensor>& old = targets[i].grad();
    targets[i].set_grad(old ? old->add(grads[i]) : grads[i]);
  }
}

const std::optional<Tensor>& Tensor::grad() const { return state_->grad; }

void Tensor::set_grad(std::optional<Tensor> g) const { state_->grad = std::move(g); }

bool Tensor::is_param() const { return state_->is_param; }

void Tensor::set_is_param(bool is_param) const { state_->is_param = is_param; }

Tensor Tensor::detach() const {
  if (const auto m = on_each_device({*this}, [](const std::vector<Tensor>& s) { return s[0].detach(); })) return *m;
  Tensor x = contiguous();
  x.realize();
  return Tensor(leaf_of(x));
}

void Tensor::assign(const Tensor& value) const {
  if (value.shape() != shape()) {
    fail("shape", "assign needs shape {}, not {}", shape_str(shape()), shape_str(value.shape()));
  }
  require_same_device(*this, value);
  const Tensor v = value.cast(dtype());
  if (v.node() == node()) return;
  if (is_multi()) {
    state_->node = multi_assigned(*this, v).node();
    return;
  }
  // nothing to write into yet: the tensor simply becomes the value
  if (!realized()) {
    state_->node = v.node();
    return;
  }
  const ShapeTracker st = node()->st();
  for (const View& view : st.views())
    if (view.mask) fail("value", "cannot assign to a padded view: its padding is in no buffer");
  const LazyRef a = make_node(Op::Assign, dtype(), shape(), device(), {node(), v.node()});
  if (!node()->is_view()) {
    state_->node = a;
    return;
  }
  // a view's values are its base's: the base's buffer is written at once (x[1:3] = y) and the view reads it
  tr::realize({a});
}

void Tensor::assign_all(const std::vector<Tensor>& targets, const std::vector<Tensor>& values) {
  for (size_t i = 0; i < targets.size(); i++) targets[i].assign(values[i]);
  realize_together(targets);
}

}  // namespace tr
