#include "core/grad/gradient.h"

#include <set>
#include <unordered_map>
#include <unordered_set>

namespace tr {

std::vector<LazyRef> toposort(const LazyRef& root) {
  // iterative: a graph may be far deeper than the stack
  std::vector<LazyRef> order;
  std::unordered_set<const LazyNode*> seen{root.get()};
  std::vector<std::pair<LazyRef, size_t>> stack{{root, 0}};
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < node->srcs.size()) {
      const LazyRef& s = node->srcs[next++];
      if (seen.insert(s.get()).second) stack.emplace_back(s, 0);
      continue;
    }
    order.push_back(node);
    stack.pop_back();
  }
  return order;
}

std::map<const LazyNode*, Tensor> compute_gradient(const LazyRef& root, const Tensor& seed,
                                                  const std::vector<LazyRef>& targets) {
  const std::vector<LazyRef> order = toposort(root);
  // Only nodes on a path to a target need a gradient.
  std::unordered_set<const LazyNode*> wanted;
  for (const LazyRef& t : targets) wanted.insert(t.get());
  std::unordered_set<const LazyNode*> on_path;
  for (const LazyRef& n : order) {
    bool reaches = wanted.contains(n.get());
    for (const LazyRef& s : n->srcs) reaches = reaches || on_path.contains(s.get());
    if (reaches) on_path.insert(n.get());
  }
  std::unordered_map<const LazyNode*, Tensor> grads;
  if (on_path.contains(root.get())) grads.emplace(root.get(), seed);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const LazyRef& n = *it;
    const auto g = grads.find(n.get());
    if (g == grads.end() || n->srcs.empty()) continue;
    const std::vector<std::optional<Tensor>> src_grads = source_gradients(n, g->second);
    for (size_t i = 0; i < n->srcs.size(); i++) {
      const LazyNode* s = n->srcs[i].get();
      if (!src_grads[i] || !on_path.contains(s) || !is_float(s->dtype)) continue;
      if (const auto old = grads.find(s); old != grads.end()) {
        old->second = old->second.add(*src_grads[i]);
      } else {
        grads.emplace(s, *src_grads[i]);
      }
    }
  }
  std::map<const LazyNode*, Tensor> out;
  for (const LazyRef& t : targets)
    if (const auto g = grads.find(t.get()); g != grads.end()) out.emplace(t.get(), g->second);
  return out;
}

}  // namespace tr
