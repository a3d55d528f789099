#pragma once
// Backward as a graph transform: from the gradient of a root node, one rule per primitive op
// (core/grad/rules.cpp) gives the gradient of each source, as ordinary lazy nodes that the scheduler
// fuses like any others. Gradients flow through float nodes only.
#include <map>
#include <vector>

#include "core/lazy/lazy.h"
#include "core/tensor/tensor.h"

namespace tr {

// The gradient of every node on a path from root to one of targets, seeded with root's gradient.
// Keyed by node; a target that no path reaches is absent.
std::map<const LazyNode*, Tensor> compute_gradient(const LazyRef& root, const Tensor& seed,
                                                  const std::vector<LazyRef>& targets);

// Every node of the graph under root, each once, sources before their users.
std::vector<LazyRef> toposort(const LazyRef& root);

// The gradients of one node's sources given the node's gradient; nullopt where none flows (an
// integer source, a comparison, a condition). One rule per op.
std::vector<std::optional<Tensor>> source_gradients(const LazyRef& node, const Tensor& grad);

// The gradient of a VIEW's base given the view's gradient: every element of the base gets the sum
// of the gradients of the view's elements that read it.
Tensor view_gradient(const Tensor& grad, const ShapeTracker& st, const Shape& base_shape);

}  // namespace tr
