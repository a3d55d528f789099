#include "repl/number_ops.h"

#include <cmath>

#include "core/base/error.h"

namespace tr::repl {
namespace {

bool is_int_like(const ConstValue& v) { return !std::holds_alternative<double>(v); }

[[noreturn]] void overflow() { fail("value", "integer overflow (ints are 64-bit)"); }

void check_divisor(double b) {
  if (b == 0) fail("zero", "division by zero");
}

int64_t int_pow(int64_t base, int64_t exp) {
  int64_t result = 1;
  while (exp > 0) {
    if ((exp & 1) && __builtin_mul_overflow(result, base, &result)) overflow();
    exp >>= 1;
    if (exp > 0 && __builtin_mul_overflow(base, base, &base)) overflow();
  }
  return result;
}

ConstValue int_binary(BinaryOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
    case BinaryOp::Add:
      if (__builtin_add_overflow(a, b, &r)) overflow();
      return r;
    case BinaryOp::Sub:
      if (__builtin_sub_overflow(a, b, &r)) overflow();
      return r;
    case BinaryOp::Mul:
      if (__builtin_mul_overflow(a, b, &r)) overflow();
      return r;
    case BinaryOp::Div: check_divisor(static_cast<double>(b)); return static_cast<double>(a) / static_cast<double>(b);
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod: {
      check_divisor(static_cast<double>(b));
      if (a == INT64_MIN && b == -1) overflow();
      int64_t q = a / b, m = a % b;
      if (m != 0 && ((m < 0) != (b < 0))) {  // C truncates toward zero, Python floors
        q -= 1;
        m += b;
      }
      return op == BinaryOp::FloorDiv ? q : m;
    }
    case BinaryOp::Pow:
      if (b >= 0) return int_pow(a, b);
      if (a == 0) fail("zero", "0.0 cannot be raised to a negative power");
      return std::pow(static_cast<double>(a), static_cast<double>(b));
    case BinaryOp::BitAnd: return a & b;
    case BinaryOp::BitOr: return a | b;
    case BinaryOp::BitXor: return a ^ b;
    case BinaryOp::LShift:
      if (b < 0) fail("value", "negative shift count");
      if (a != 0 && (b >= 63 || (a << b) >> b != a)) overflow();
      return a << b;
    case BinaryOp::RShift:
      if (b < 0) fail("value", "negative shift count");
      return a >> std::min<int64_t>(b, 63);
    case BinaryOp::MatMul: break;
  }
  fail("type", "matrix multiplication (@) needs tensors, not numbers");
}

// Python's float_divmod: the remainder takes the divisor's sign, the quotient is floored.
std::pair<double, double> float_divmod(double a, double b) {
  check_divisor(b);
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, b);
  }
  double floordiv = 0;
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, a / b);
  }
  return {floordiv, mod};
}

double float_pow(double a, double b) {
  if (a == 0 && b < 0) fail("zero", "0.0 cannot be raised to a negative power");
  if (a < 0 && std::isfinite(b) && b != std::floor(b)) {
    fail("value", "a negative number cannot be raised to a fractional power");
  }
  const double r = std::pow(a, b);
  if (std::isinf(r) && std::isfinite(a) && std::isfinite(b)) fail("value", "numerical result out of range");
  return r;
}

ConstValue float_binary(BinaryOp op, double a, double b) {
  switch (op) {
    case BinaryOp::Add: return a + b;
    case BinaryOp::Sub: return a - b;
    case BinaryOp::Mul: return a * b;
    case BinaryOp::Div: check_divisor(b); return a / b;
    case BinaryOp::FloorDiv: return float_divmod(a, b).first;
    case BinaryOp::Mod: return float_divmod(a, b).second;
    case BinaryOp::Pow: return float_pow(a, b);
    case BinaryOp::BitAnd:
    case BinaryOp::BitOr:
    case BinaryOp::BitXor:
    case BinaryOp::LShift:
    case BinaryOp::RShift: fail("type", "unsupported operand type for {}: 'float'", spelling(op));
    case BinaryOp::MatMul: break;
  }
  fail("type", "matrix multiplication (@) needs tensors, not numbers");
}

template <typename T>
bool compare(CompareOp op, T x, T y) {
  switch (op) {
    case CompareOp::Lt: return x < y;
    case CompareOp::Le: return x <= y;
    case CompareOp::Gt: return x > y;
    case CompareOp::Ge: return x >= y;
    case CompareOp::Eq: return x == y;
    case CompareOp::Ne: return x != y;
    // identity and membership are decided before numbers are compared (repl/operators.cpp)
    case CompareOp::Is: return x == y;
    case CompareOp::IsNot: return x != y;
    case CompareOp::In:
    case CompareOp::NotIn: fail("type", "argument of type 'int' is not iterable");
  }
  return false;
}

}  // namespace

ConstValue number_binary(BinaryOp op, const ConstValue& a, const ConstValue& b) {
  const bool logical = op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor;
  // Python: True & False is a bool, True & 3 an int
  if (logical && std::holds_alternative<bool>(a) && std::holds_alternative<bool>(b))
    return as_int(int_binary(op, as_int(a), as_int(b))) != 0;
  if (is_int_like(a) && is_int_like(b)) return int_binary(op, as_int(a), as_int(b));
  return float_binary(op, as_double(a), as_double(b));
}

bool number_compare(CompareOp op, const ConstValue& a, const ConstValue& b) {
  // ints compare exactly, without a detour through double
  if (is_int_like(a) && is_int_like(b)) return compare(op, as_int(a), as_int(b));
  return compare(op, as_double(a), as_double(b));
}

}  // namespace tr::repl
