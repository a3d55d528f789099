#include "core/lazy/lazy.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <set>

#include <fmt/format.h>

#include "core/base/hash.h"
#include "core/base/intern.h"
#include "core/lazy/symbolic_shape.h"
#include "core/base/tree_print.h"
#include "core/base/value_str.h"

namespace tr {

ShapeTracker LazyNode::st() const {
  if (is_view()) return std::get<ShapeTracker>(arg);
  return ShapeTracker::contiguous(shape, sym);
}

LazyNode::LazyNode(Op op, DType dtype, Shape shape, std::string device, std::vector<LazyRef> srcs, LazyArg arg,
                   uint64_t id)
    : op(op), dtype(dtype), shape(std::move(shape)), device(std::move(device)), srcs(std::move(srcs)),
      arg(std::move(arg)), id(id) {
  for (const LazyRef& s : this->srcs) depth = std::max(depth, (s->buffer ? 0 : s->depth) + 1);
}

LazyNode::~LazyNode() {
  std::vector<LazyRef> dying = std::move(srcs);
  while (!dying.empty()) {
    LazyRef n = std::move(dying.back());
    dying.pop_back();
    if (n.use_count() == 1) std::move(n->srcs.begin(), n->srcs.end(), std::back_inserter(dying));
  }
}

namespace {

uint64_t next_id() {
  static std::atomic<uint64_t> next{0};
  return next++;
}

size_t arg_hash(const LazyArg& arg) {
  const size_t own = std::visit(
      [](const auto& a) -> size_t {
        using A = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<A, ConstValue>) return hash_of(a);
        else if constexpr (std::is_same_v<A, ShapeTracker>) return a.hash();
        else if constexpr (std::is_same_v<A, std::vector<int>>) return hash_mix(0, a);
        else if constexpr (std::is_same_v<A, Sharding>) return static_cast<size_t>(a.axis.value_or(-1) + 1);
        else return std::hash<A>{}(a);
      },
      arg);
  return hash_mix(arg.index(), own);
}

bool same_arg(const LazyArg& a, const LazyArg& b) {
  if (const auto* c = std::get_if<ConstValue>(&a)) return std::holds_alternative<ConstValue>(b) && same_bits(*c, std::get<ConstValue>(b));
  return a == b;
}

}  // namespace

LazyRef make_node(Op op, DType dtype, Shape shape, std::string device, std::vector<LazyRef> srcs, LazyArg arg) {
  size_t h = hash_mix(static_cast<size_t>(op), static_cast<size_t>(dtype));
  h = hash_mix(h, shape);
  h = hash_mix(h, std::hash<std::string>{}(device));
  for (const LazyRef& s : srcs) h = hash_mix(h, std::hash<const LazyNode*>{}(s.get()));
  h = hash_mix(h, arg_hash(arg));
  // A realized node is left out: its buffer is read as it was, and a graph built now must see the
  // sources as they are now.
  const auto same = [&](const LazyNode& n) {
    return !n.buffer && n.op == op && n.dtype == dtype && n.shape == shape && n.device == device && n.srcs == srcs &&
           same_arg(n.arg, arg);
  };
  static InternTable<LazyNode> table;
  return table.find_or_make(h, same, [&] {
    std::vector<ExprRef> sym = derived_sym(op, shape, srcs, arg);
    const LazyRef n = std::make_shared<LazyNode>(op, dtype, std::move(shape), std::move(device), std::move(srcs),
                                                 std::move(arg), next_id());
    n->sym = std::move(sym);
    return n;
  });
}

LazyRef make_leaf(const BufferRef& buffer, DType dtype, Shape shape, std::string device) {
  const LazyRef leaf = std::make_shared<LazyNode>(Op::Copy, dtype, std::move(shape), std::move(device),
                                                  std::vector<LazyRef>{}, LazyArg{}, next_id());
  leaf->buffer = buffer;
  return leaf;
}

LazyRef base_of(const LazyRef& x) { return x->is_view() ? x->srcs[0] : x; }

LazyRef make_view(const LazyRef& x, const ShapeTracker& st_on_x) {
  const LazyRef base = base_of(x);
  const ShapeTracker st = x->is_view() ? x->st().compose(st_on_x) : st_on_x.simplify();
  if (st.contiguous() && st.shape() == base->shape && st == base->st()) return base;
  return make_node(Op::View, base->dtype, st.shape(), base->device, {base}, st);
}

std::string lazy_node_str(const LazyNode& n) {
  std::string s = fmt::format("#{} {} {} {}", n.id, op_name(n.op), name(n.dtype), shape_str(n.shape));
  if (const auto* c = std::get_if<ConstValue>(&n.arg)) s += " " + const_str(*c, n.dtype);
  if (const auto* st = std::get_if<ShapeTracker>(&n.arg)) s += " " + st->str();
  if (const auto* axes = std::get_if<std::vector<int>>(&n.arg)) s += " axes=" + tuple_str(*axes);
  if (const auto* sh = std::get_if<Sharding>(&n.arg)) s += sh->axis ? fmt::format(" axis={}", *sh->axis) : " replicated";
  if (n.op == Op::Copy && n.srcs.empty()) s += " from HOST";
  if (n.buffer) s += " [realized]";
  return s;
}

namespace {

TreeNode graph_tree(const LazyNode& n, std::set<uint64_t>& seen) {
  if (!seen.insert(n.id).second) return {fmt::format("↑ #{}", n.id), {}};
  TreeNode t{lazy_node_str(n), {}};
  if (!n.buffer)  // a realized node is read from its buffer: what made it no longer matters
    for (const LazyRef& s : n.srcs) t.children.push_back(graph_tree(*s, seen));
  return t;
}

}  // namespace

std::string print_graph(const LazyRef& x) {
  std::set<uint64_t> seen;
  return print_tree(graph_tree(*x, seen));
}

}  // namespace tr
