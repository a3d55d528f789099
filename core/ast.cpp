#include "core/ast.h"

#include <unordered_set>

#include <fmt/format.h>

#include "core/tree_print.h"
#include "core/value_str.h"

namespace tr {

AstRef ast_store(int idx, ShapeTracker st, AstRef value) {
  const DType t = value->dtype;
  return std::make_shared<const AstNode>(AstNode{AstOp::Store, t, {std::move(value)}, Op::Add, idx, std::move(st), {}, {}});
}
AstRef ast_load(int idx, DType dtype, ShapeTracker st) {
  return std::make_shared<const AstNode>(AstNode{AstOp::Load, dtype, {}, Op::Add, idx, std::move(st), {}, {}});
}
AstRef ast_const(ConstValue v, DType dtype, ShapeTracker st) {
  return std::make_shared<const AstNode>(AstNode{AstOp::Const, dtype, {}, Op::Add, -1, std::move(st), v, {}});
}
AstRef ast_arange(DType dtype, ShapeTracker st) {
  return std::make_shared<const AstNode>(AstNode{AstOp::Arange, dtype, {}, Op::Add, -1, std::move(st), {}, {}});
}
AstRef ast_alu(Op op, DType dtype, std::vector<AstRef> srcs) {
  return std::make_shared<const AstNode>(AstNode{AstOp::Alu, dtype, std::move(srcs), op, -1, std::nullopt, {}, {}});
}
AstRef ast_reduce(Op op, DType dtype, AstRef src, std::vector<int> axes) {
  return std::make_shared<const AstNode>(
      AstNode{AstOp::Reduce, dtype, {std::move(src)}, op, -1, std::nullopt, {}, std::move(axes)});
}

AstRef map_trackers(const AstRef& ast, const std::function<ShapeTracker(const ShapeTracker&)>& f) {
  AstNode n = *ast;
  for (AstRef& s : n.srcs) s = map_trackers(s, f);
  if (n.st) n.st = f(*n.st);
  return std::make_shared<const AstNode>(std::move(n));
}

void walk(const AstRef& ast, const std::function<void(const AstNode&)>& f) {
  f(*ast);
  for (const AstRef& s : ast->srcs) walk(s, f);
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
    case AstOp::Alu: return n.alu == Op::Cast ? fmt::format("CAST {}", t) : std::string(op_name(n.alu));
    case AstOp::Reduce: return fmt::format("{} {}", op_name(n.alu), tuple_str(n.axes));
  }
  return "?";
}

namespace {

TreeNode tree_of(const AstNode& n) {
  TreeNode t{ast_node_str(n), {}};
  for (const AstRef& s : n.srcs) t.children.push_back(tree_of(*s));
  return t;
}

}  // namespace

std::string print_ast(const AstRef& ast) { return print_tree(tree_of(*ast)); }

}  // namespace tr
