// Tensor's gradients, detach and assign, with tinygrad 0.14's semantics (core/grad does the work).
#include <unordered_set>

#include "core/error.h"
#include "core/grad/gradient.h"
#include "core/realize.h"
#include "core/tensor.h"

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

}  // namespace

std::vector<Tensor> Tensor::gradient(const std::vector<Tensor>& targets, const std::optional<Tensor>& seed) const {
  std::vector<LazyRef> nodes;
  for (const Tensor& t : targets) {
    if (!is_float(t.dtype())) fail("type", "only float tensors have gradients, not {}", name(t.dtype()));
    nodes.push_back(t.node());
  }
  const std::map<const LazyNode*, Tensor> grads = compute_gradient(node(), seed_for(*this, seed), nodes);
  std::vector<Tensor> out;
  for (const Tensor& t : targets) {
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
  for (const Tensor& t : live())
    if (is_float(t.dtype()) && in_graph.contains(t.node().get())) targets.push_back(t);
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
