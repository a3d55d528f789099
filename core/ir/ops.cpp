#include "core/ir/ops.h"

namespace tr {

std::string_view op_name(Op op) {
  switch (op) {
    case Op::Const: return "CONST";
    case Op::Arange: return "ARANGE";
    case Op::Copy: return "COPY";
    case Op::Neg: return "NEG";
    case Op::Exp2: return "EXP2";
    case Op::Log2: return "LOG2";
    case Op::Sin: return "SIN";
    case Op::Sqrt: return "SQRT";
    case Op::Recip: return "RECIP";
    case Op::Trunc: return "TRUNC";
    case Op::Cast: return "CAST";
    case Op::Bitcast: return "BITCAST";
    case Op::Add: return "ADD";
    case Op::Mul: return "MUL";
    case Op::IDiv: return "IDIV";
    case Op::Mod: return "MOD";
    case Op::Max: return "MAX";
    case Op::MaxNan: return "MAX_NAN";
    case Op::CmpLt: return "CMPLT";
    case Op::CmpNe: return "CMPNE";
    case Op::And: return "AND";
    case Op::Or: return "OR";
    case Op::Xor: return "XOR";
    case Op::Where: return "WHERE";
    case Op::MulAcc: return "MULACC";
    case Op::Sum: return "SUM";
    case Op::ReduceMax: return "MAX";
    case Op::Prod: return "PROD";
    case Op::View: return "VIEW";
    case Op::Contiguous: return "CONTIGUOUS";
    case Op::Assign: return "ASSIGN";
    case Op::Multi: return "MULTI";
  }
  return "?";
}

bool is_unary(Op op) { return op >= Op::Neg && op <= Op::Bitcast; }
bool is_binary(Op op) { return op >= Op::Add && op <= Op::Xor; }
bool is_reduce(Op op) { return op == Op::Sum || op == Op::ReduceMax || op == Op::Prod; }
bool is_elementwise(Op op) { return is_unary(op) || is_binary(op) || op == Op::Where; }
bool is_comparison(Op op) { return op == Op::CmpLt || op == Op::CmpNe; }

}  // namespace tr
