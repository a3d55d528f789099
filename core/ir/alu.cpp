#include "core/ir/alu.h"

#include <cmath>

#include "core/runtime/buffer.h"
#include "core/base/error.h"

namespace tr {
namespace {

ConstValue float_op(Op op, DType out, double a, double b) {
  switch (op) {
    case Op::Neg: return round_to(out, -a);
    case Op::Exp2: return round_to(out, std::exp2(a));
    case Op::Log2: return round_to(out, std::log2(a));
    case Op::Sin: return round_to(out, std::sin(a));
    case Op::Sqrt: return round_to(out, std::sqrt(a));
    case Op::Recip: return round_to(out, 1.0 / a);
    case Op::Trunc: return round_to(out, std::trunc(a));
    case Op::Add: return round_to(out, a + b);
    case Op::Mul: return round_to(out, a * b);
    case Op::Max: return a < b ? b : a;
    case Op::MaxNan: return a < b || std::isnan(b) ? b : a;
    case Op::CmpLt: return a < b;
    case Op::CmpNe: return a != b;
    case Op::IDiv: case Op::Mod: case Op::And: case Op::Or: case Op::Xor: break;  // integer ops
    // exec_alu computes Cast, Bitcast and Where itself; the rest have no rule on scalars here
    case Op::Const: case Op::Arange: case Op::Copy: case Op::Cast: case Op::Bitcast: case Op::Where: case Op::MulAcc:
    case Op::Sum: case Op::ReduceMax: case Op::Prod: case Op::View: case Op::Contiguous: case Op::Assign: case Op::Multi: break;
  }
  fail("type", "{} is not defined on floats", op_name(op));
}

ConstValue int_op(Op op, DType out, int64_t a, int64_t b) {
  // unsigned 64-bit arithmetic wraps like the target's, whatever the width
  const auto ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (op) {
    case Op::Neg: return wrap_to(out, static_cast<int64_t>(0 - ua));
    case Op::Add: return wrap_to(out, static_cast<int64_t>(ua + ub));
    case Op::Mul: return wrap_to(out, static_cast<int64_t>(ua * ub));
    case Op::IDiv:
      if (b == 0 || (b == -1 && a == INT64_MIN)) return int64_t{0};
      if (is_unsigned(out)) return wrap_to(out, static_cast<int64_t>(ua / ub));
      return wrap_to(out, a / b);
    case Op::Mod:
      if (b == 0 || b == -1) return int64_t{0};
      if (is_unsigned(out)) return wrap_to(out, static_cast<int64_t>(ua % ub));
      return wrap_to(out, a % b);
    case Op::Max: case Op::MaxNan: return a < b ? b : a;
    case Op::CmpLt: return is_unsigned(out) ? ua < ub : a < b;
    case Op::CmpNe: return a != b;
    case Op::And: return wrap_to(out, a & b);
    case Op::Or: return wrap_to(out, a | b);
    case Op::Xor: return wrap_to(out, a ^ b);
    case Op::Exp2: case Op::Log2: case Op::Sin: case Op::Sqrt: case Op::Recip: case Op::Trunc: break;  // float ops
    // exec_alu computes Cast, Bitcast and Where itself; the rest have no rule on scalars here
    case Op::Const: case Op::Arange: case Op::Copy: case Op::Cast: case Op::Bitcast: case Op::Where: case Op::MulAcc:
    case Op::Sum: case Op::ReduceMax: case Op::Prod: case Op::View: case Op::Contiguous: case Op::Assign: case Op::Multi: break;
  }
  fail("type", "{} is not defined on integers", op_name(op));
}

}  // namespace

ConstValue exec_alu(Op op, DType out, DType in, const std::vector<ConstValue>& srcs) {
  if (op == Op::Cast) return cast_const(srcs[0], out);
  if (op == Op::Bitcast) {
    // the value's bytes as `in` stores them, read back as `out` (the same item size)
    HostData from(in, 1);
    from.set(0, srcs[0]);
    HostData to(out, 1);
    to.bytes = from.bytes;
    return to.get(0);
  }
  if (op == Op::Where) return cast_const(as_int(srcs[0]) ? srcs[1] : srcs[2], out);
  const ConstValue a = srcs[0], b = srcs.size() > 1 ? srcs[1] : ConstValue{int64_t{0}};
  if (is_float(in)) return float_op(op, out, as_double(a), as_double(b));
  // comparisons of unsigned sources need the source's signedness, not the bool result's
  const ConstValue r = int_op(op, is_comparison(op) ? in : out, as_int(a), as_int(b));
  return cast_const(r, out);
}

}  // namespace tr
