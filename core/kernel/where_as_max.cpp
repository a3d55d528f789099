#include "core/kernel/where_as_max.h"

namespace tr {

AstRef where_as_max(const AstRef& ast) {
  return rebuild(ast, [](const AstNode&, AstNode& n) {
    if (n.op != AstOp::Alu || n.alu != Op::Where) return;
    const AstNode& cond = *n.srcs[0];
    if (cond.op != AstOp::Alu || cond.alu != Op::CmpLt || cond.srcs[0] != n.srcs[2] || cond.srcs[1] != n.srcs[1]) return;
    n.alu = Op::Max;
    n.srcs = {n.srcs[2], n.srcs[1]};
  });
}

}  // namespace tr
