#include "core/codegen/graph.h"

#include "core/ir/alu.h"

namespace tr {

int UGraph::add(UOp u) {
  const size_t h = uop_hash(u);
  const auto [begin, end] = index_.equal_range(h);
  for (auto it = begin; it != end; ++it)
    if (same_uop(nodes_[it->second], u)) {
      if (origins_[it->second] < 0) origins_[it->second] = from_row;
      return it->second;
    }
  nodes_.push_back(std::move(u));
  origins_.push_back(from_row);
  const int i = size() - 1;
  index_.emplace(h, i);
  return i;
}

int UGraph::cnst(const ConstValue& v, DType t, int vec) {
  return add(UOp{.kind = UOpKind::Const, .dtype = t, .vec = vec, .value = cast_const(v, t)});
}

int UGraph::alu(Op op, DType t, std::vector<int> srcs, int vec) {
  return add(UOp{.kind = UOpKind::Alu, .dtype = t, .vec = vec, .srcs = std::move(srcs), .alu = op});
}

int UGraph::cast(DType t, int src, int vec) { return add(UOp{.kind = UOpKind::Cast, .dtype = t, .vec = vec, .srcs = {src}}); }

int UGraph::vectorize(std::vector<int> lanes) {
  const DType t = nodes_[lanes[0]].dtype;
  const int n = static_cast<int>(lanes.size());
  return add(UOp{.kind = UOpKind::Vectorize, .dtype = t, .vec = n, .srcs = std::move(lanes)});
}

int UGraph::gep(int v, int lane) {
  if (nodes_[v].kind == UOpKind::Vectorize) return nodes_[v].srcs[lane];
  return add(UOp{.kind = UOpKind::Gep, .dtype = nodes_[v].dtype, .srcs = {v}, .lane = lane});
}

int UGraph::broadcast(int x, int vec) {
  if (vec == 1 || nodes_[x].vec == vec) return x;
  return vectorize(std::vector<int>(vec, x));
}

std::vector<int> toposort(const UGraph& g) {
  std::vector<int> order;
  std::vector<char> state(g.size(), 0);  // 0 unseen, 1 its sources are being visited, 2 placed
  std::vector<std::pair<int, size_t>> stack{{g.sink, 0}};
  while (!stack.empty()) {
    auto& [n, next] = stack.back();
    state[n] = 1;
    if (next < g[n].srcs.size()) {
      const int s = g[n].srcs[next++];
      if (state[s] == 0) stack.emplace_back(s, 0);
      continue;
    }
    state[n] = 2;
    order.push_back(n);
    stack.pop_back();
  }
  return order;
}

int substitute(UGraph& g, int n, const std::map<int, int>& with, std::map<int, int>& done) {
  if (const auto it = with.find(n); it != with.end()) return it->second;
  if (const auto it = done.find(n); it != done.end()) return it->second;
  UOp u = g[n];
  const FromAstRow from(g, g.origin(n));
  bool changed = false;
  for (int& s : u.srcs) {
    const int to = substitute(g, s, with, done);
    changed = changed || to != s;
    s = to;
  }
  return done[n] = changed ? g.add(std::move(u)) : n;
}

UGraph rewrite(const UGraph& g, const std::function<int(UGraph& out, int old, const UOp& moved)>& f) {
  UGraph out;
  std::vector<int> moved_to(g.size(), -1);
  for (int n : toposort(g)) {
    UOp u = g[n];
    for (int& s : u.srcs) s = moved_to[s];
    const FromAstRow from(out, g.origin(n));
    moved_to[n] = f(out, n, u);
  }
  out.sink = moved_to[g.sink];
  return out;
}

}  // namespace tr
