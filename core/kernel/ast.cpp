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

namespace {

std::string tuple_of(const std::vector<int64_t>& v) {
  return fmt::format("({}{})", fmt::join(v, ", "), v.size() == 1 ? "," : "");
}

std::string tracker_repr(const ShapeTracker& st) {
  std::vector<std::string> views;
  for (const View& v : st.views()) {
    std::string mask = "None";
    if (v.mask) {
      std::vector<std::string> ranges;
      for (const auto& [b, e] : *v.mask) ranges.push_back(fmt::format("({}, {})", b, e));
      mask = fmt::format("({}{})", fmt::join(ranges, ", "), ranges.size() == 1 ? "," : "");
    }
    views.push_back(fmt::format("View(shape={}, strides={}, offset={}, mask={}, contiguous={})", tuple_of(v.shape),
                                tuple_of(v.strides), v.offset, mask, v.contiguous ? "True" : "False"));
  }
  return fmt::format("ShapeTracker(views=({},))", fmt::join(views, ", "));
}

// "BinaryOps.MUL", "ReduceOps.SUM", "UnaryOps.CAST": tinygrad 0.9's op families.
std::string family_name(Op op) {
  std::string_view family = "BinaryOps";
  switch (op) {
    case Op::Neg: case Op::Exp2: case Op::Log2: case Op::Sin: case Op::Sqrt: case Op::Recip: case Op::Trunc: case Op::Cast:
    case Op::Bitcast: family = "UnaryOps"; break;
    case Op::Where: case Op::MulAcc: family = "TernaryOps"; break;
    case Op::Sum: case Op::ReduceMax: case Op::Prod: family = "ReduceOps"; break;
    case Op::Add: case Op::Mul: case Op::IDiv: case Op::Mod: case Op::Max: case Op::MaxNan: case Op::CmpLt: case Op::CmpNe:
    case Op::And: case Op::Or: case Op::Xor: case Op::Const: case Op::Arange: case Op::Copy: case Op::View: case Op::Contiguous:
    case Op::Assign: case Op::Multi: break;
  }
  const std::string_view name = op == Op::ReduceMax ? "MAX" : op_name(op);
  return fmt::format("{}.{}", family, name);
}

std::string lazyop_of(const AstNode& n, const std::unordered_map<const AstNode*, int>& rows, std::unordered_set<const AstNode*>& seen,
                      int depth) {
  if (!seen.insert(&n).second) return fmt::format("↑ {}", rows.at(&n));
  const std::string t = fmt::format("dtypes.{}", short_name(n.dtype));
  std::string head;
  switch (n.op) {
    case AstOp::Store:
    case AstOp::Load:
      head = fmt::format("BufferOps.{}, arg=MemBuffer(idx={}, dtype={}, st={})", n.op == AstOp::Store ? "STORE" : "LOAD", n.idx, t,
                         tracker_repr(*n.st));
      break;
    case AstOp::Const:
      head = fmt::format("BufferOps.CONST, arg=ConstBuffer(val={}, dtype={}, st={})", const_str(n.value, n.dtype), t, tracker_repr(*n.st));
      break;
    case AstOp::Arange: head = fmt::format("ARANGE, arg=(dtype={}, st={})", t, tracker_repr(*n.st)); break;
    case AstOp::Alu:
      head = fmt::format("{}, arg={}", family_name(n.alu), n.alu == Op::Cast || n.alu == Op::Bitcast ? t : "None");
      break;
    case AstOp::Reduce: {
      const std::vector<int64_t> axes(n.axes.begin(), n.axes.end());
      head = fmt::format("{}, arg={}", family_name(n.alu), tuple_of(axes));
      break;
    }
  }
  std::string srcs;
  for (const AstRef& s : n.srcs)
    srcs += fmt::format("\n{}{},", std::string(2 * (depth + 1), ' '), lazyop_of(*s, rows, seen, depth + 1));
  return fmt::format("LazyOp({}, src=({}))", head, srcs);
}

}  // namespace

std::string print_lazyop(const AstRef& ast) {
  std::unordered_set<const AstNode*> seen;
  return fmt::format("LazyOp(MetaOps.KERNEL, arg=None, src=(\n  {},))\n", lazyop_of(*ast, ast_rows(ast), seen, 1));
}

std::unordered_map<const AstNode*, int> ast_rows(const AstRef& ast) {
  std::unordered_map<const AstNode*, int> row_of;
  int rows = 0;
  tree_of(*ast, row_of, rows);
  return row_of;
}

}  // namespace tr
