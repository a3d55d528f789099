#include "core/codegen/lowering.h"

#include "core/base/error.h"

namespace tr {

ExprRef Lowering::bind(const UOp& u, int64_t size) {
  bound.push_back(u);
  return node_var(static_cast<int>(bound.size() - 1), uop_name(u), 0, size - 1);
}

int user_var_index(const Kernel& k, const ExprRef& v) {
  for (size_t i = 0; i < k.vars.size(); i++)
    if (k.vars[i]->name == v->name) return static_cast<int>(i);
  fail("value", "the kernel has no Variable {}", v->name);
}

int index_node(UGraph& g, const Lowering& low, const ExprRef& e) {
  const auto chain = [&](Op op, DType t) {
    int acc = index_node(g, low, e->srcs[0]);
    for (size_t i = 1; i < e->srcs.size(); i++) acc = g.alu(op, t, {acc, index_node(g, low, e->srcs[i])});
    return acc;
  };
  const auto with_const = [&](Op op, DType t) { return g.alu(op, t, {index_node(g, low, e->srcs[0]), g.cnst(e->value, kIndex)}); };
  switch (e->op) {
    case ExprOp::Const: return g.cnst(e->value, kIndex);
    case ExprOp::Var:
      return g.add(e->node >= 0 ? low.bound.at(static_cast<size_t>(e->node))
                                : low.user_vars.at(static_cast<size_t>(user_var_index(low.k, e))));
    case ExprOp::Add: return chain(Op::Add, kIndex);
    case ExprOp::And: return chain(Op::And, DType::Bool);
    case ExprOp::Mul: return with_const(Op::Mul, kIndex);
    case ExprOp::Div: return with_const(Op::IDiv, kIndex);
    case ExprOp::Mod: return with_const(Op::Mod, kIndex);
    case ExprOp::Lt: return with_const(Op::CmpLt, DType::Bool);
  }
  return -1;
}

}  // namespace tr
