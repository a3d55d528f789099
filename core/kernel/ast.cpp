#include "core/kernel/ast.h"

#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "core/base/hash.h"
#include "core/base/intern.h"
#include "core/base/tree_print.h"
#include "core/base/value_str.h"

namespace tr {
namespace {

size_t structural_hash(const AstNode& n) {
  size_t h = hash_mix(static_cast<size_t>(n.op), static_cast<size_t>(n.dtype));
  h = hash_mix(h, static_cast<size_t>(n.alu));
  h = hash_mix(h, std::hash<int>{}(n.idx));
  h = hash_mix(h, n.st ? n.st->hash() : 0);
  h = hash_mix(h, hash_of(n.value));
  h = hash_mix(h, n.axes);
  for (const AstRef& s : n.srcs) h = hash_mix(h, s->hash);
  return h;
}

bool same_node(const AstNode& a, const AstNode& b) {
  return a.op == b.op && a.dtype == b.dtype && a.alu == b.alu && a.idx == b.idx && a.st == b.st && same_bits(a.value, b.value) &&
         a.axes == b.axes && a.srcs == b.srcs;  // sources are interned: equal pointers are equal DAGs
}

AstRef intern(AstNode n) {
  n.hash = structural_hash(n);
  static InternTable<const AstNode> table;
  return table.find_or_make(
      n.hash, [&](const AstNode& live) { return same_node(live, n); },
      [&] { return std::make_shared<const AstNode>(std::move(n)); });
}

}  // namespace

AstRef ast_store(int idx, ShapeTracker st, AstRef value) {
  const DType t = value->dtype;
  return intern(AstNode{AstOp::Store, t, {std::move(value)}, Op::Add, idx, std::move(st), {}, {}});
}
AstRef ast_load(int idx, DType dtype, ShapeTracker st) {
  return intern(AstNode{AstOp::Load, dtype, {}, Op::Add, idx, std::move(st), {}, {}});
}
AstRef ast_const(ConstValue v, DType dtype, ShapeTracker st) {
  // A constant reads no memory, so through one view its strides and offset say nothing. Set to 0 they
  // make equal constants one node whatever view they were read through: a size-1 symbolic dim keeps
  // the stride of that view, and would otherwise give a kernel for n = 1 of its own.
  if (st.views().size() == 1) {
    const View& only = st.views()[0];
    st = ShapeTracker({View::make(only.shape, std::vector<int64_t>(only.shape.size(), 0), 0, only.mask, only.sym)});
  }
  return intern(AstNode{AstOp::Const, dtype, {}, Op::Add, -1, std::move(st), v, {}});
}
AstRef ast_arange(DType dtype, ShapeTracker st) {
  return intern(AstNode{AstOp::Arange, dtype, {}, Op::Add, -1, std::move(st), {}, {}});
}
AstRef ast_alu(Op op, DType dtype, std::vector<AstRef> srcs) {
  return intern(AstNode{AstOp::Alu, dtype, std::move(srcs), op, -1, std::nullopt, {}, {}});
}
AstRef ast_reduce(Op op, DType dtype, AstRef src, std::vector<int> axes) {
  return intern(AstNode{AstOp::Reduce, dtype, {std::move(src)}, op, -1, std::nullopt, {}, std::move(axes)});
}

AstRef rebuild(const AstRef& ast, const std::function<void(const AstNode&, AstNode&)>& f,
               const std::function<bool(const AstNode&)>& keep) {
  std::unordered_map<const AstNode*, AstRef> done;
  const std::function<AstRef(const AstRef&)> go = [&](const AstRef& a) -> AstRef {
    if (const auto it = done.find(a.get()); it != done.end()) return it->second;
    if (keep && keep(*a)) return done[a.get()] = a;
    AstNode n = *a;
    for (AstRef& s : n.srcs) s = go(s);
    f(*a, n);
    return done[a.get()] = intern(std::move(n));
  };
  return go(ast);
}

AstRef map_trackers(const AstRef& ast, const std::function<ShapeTracker(const ShapeTracker&)>& f) {
  return rebuild(ast, [&](const AstNode&, AstNode& n) {
    if (n.st) n.st = f(*n.st);
  });
}

void walk(const AstRef& ast, const std::function<void(const AstNode&)>& f) {
  std::unordered_set<const AstNode*> seen;
  const std::function<void(const AstNode&)> go = [&](const AstNode& n) {
    if (!seen.insert(&n).second) return;
    f(n);
    for (const AstRef& s : n.srcs) go(*s);
  };
  go(*ast);
}

const AstNode* find_node(const AstRef& ast, const std::function<bool(const AstNode&)>& pred) {
  const AstNode* found = nullptr;
  walk(ast, [&](const AstNode& n) {
    if (!found && pred(n)) found = &n;
  });
  return found;
}

std::string ast_node_str(const AstNode& n) {
  const std::string_view t = short_name(n.dtype);
  switch (n.op) {
    case AstOp::Store:
    case AstOp::Load:
      return fmt::format("{} MemBuffer(idx={}, dtype={}, st={})", n.op == AstOp::Store ? "STORE" : "LOAD", n.idx, t,
                         n.st->str());
    case AstOp::Const:
      return fmt::format("CONST ConstBuffer(val={}, dtype={}, st={})", const_str(n.value, n.dtype), t, n.st->str());
    case AstOp::Arange: return fmt::format("ARANGE (dtype={}, st={})", t, n.st->str());
    case AstOp::Alu:
      return n.alu == Op::Cast || n.alu == Op::Bitcast ? fmt::format("{} {}", op_name(n.alu), t) : std::string(op_name(n.alu));
    case AstOp::Reduce: return fmt::format("{} {}", op_name(n.alu), tuple_str(n.axes));
  }
  return "?";
}

namespace {

// Rows are numbered in the order they are made (parents first), so a node met again refers to the
// row where it was drawn.
TreeNode tree_of(const AstNode& n, std::unordered_map<const AstNode*, int>& row_of, int& rows) {
  const int row = rows++;
  if (const auto it = row_of.find(&n); it != row_of.end()) return {fmt::format("↑ {}", it->second), {}};
  row_of.emplace(&n, row);
  TreeNode t{ast_node_str(n), {}};
  for (const AstRef& s : n.srcs) t.children.push_back(tree_of(*s, row_of, rows));
  return t;
}

}  // namespace

std::string print_ast(const AstRef& ast) {
  std::unordered_map<const AstNode*, int> row_of;
  int rows = 0;
  return print_tree(tree_of(*ast, row_of, rows));
}

}  // namespace tr
