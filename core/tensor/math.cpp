// Element-wise operations, each one built from the primitives as tinygrad builds it.
#include <cmath>
#include <limits>
#include <numbers>

#include "core/base/error.h"
#include "core/tensor/tensor.h"
#include "core/tensor/multi.h"

namespace tr {
namespace {

constexpr double kLn2 = std::numbers::ln2;

Tensor c(const Tensor& like, double v) { return Tensor::scalar_like(like, v).expand(like.shape()); }
Tensor c(const Tensor& like, int64_t v) { return Tensor::scalar_like(like, v).expand(like.shape()); }

Tensor as_float(const Tensor& x) { return x.cast(least_upper_float(x.dtype())); }

}  // namespace

Tensor Tensor::neg() const {
  if (dtype() == DType::Bool) return logical_not();
  return unary(Op::Neg);
}
Tensor Tensor::exp2() const { return as_float(*this).unary(Op::Exp2); }
Tensor Tensor::log2() const { return as_float(*this).unary(Op::Log2); }
Tensor Tensor::exp() const { return mul(c(*this, 1.0 / kLn2)).exp2(); }
Tensor Tensor::log() const { return log2().mul(c(as_float(*this), kLn2)); }
Tensor Tensor::sqrt() const { return as_float(*this).unary(Op::Sqrt); }
Tensor Tensor::rsqrt() const { return sqrt().reciprocal(); }
Tensor Tensor::sin() const { return as_float(*this).unary(Op::Sin); }
Tensor Tensor::cos() const { return c(as_float(*this), std::numbers::pi / 2).sub(as_float(*this)).sin(); }
Tensor Tensor::tan() const { return sin().div(cos()); }
Tensor Tensor::reciprocal() const { return as_float(*this).unary(Op::Recip); }
Tensor Tensor::square() const { return mul(*this); }
Tensor Tensor::relu() const { return gt(c(*this, int64_t{0})).where(*this, c(*this, int64_t{0})); }
Tensor Tensor::sigmoid() const {
  const Tensor e = mul(c(*this, -1.0 / kLn2)).exp2();
  return c(e, 1.0).add(e).reciprocal();
}
Tensor Tensor::tanh() const {
  return c(as_float(*this), 2.0).mul(mul(c(*this, 2.0)).sigmoid()).sub(c(as_float(*this), 1.0));
}
Tensor Tensor::gelu(GeluApprox approximate) const {
  const Tensor x = as_float(*this);
  if (approximate == GeluApprox::None)
    return x.mul(c(x, 0.5)).mul(c(x, 1.0).add(x.div(c(x, std::sqrt(2.0))).erf()));
  const Tensor inner = x.add(c(x, 0.044715).mul(x.mul(x).mul(x))).mul(c(x, std::sqrt(2.0 / std::numbers::pi)));
  return c(x, 0.5).mul(x).mul(c(x, 1.0).add(inner.tanh()));
}
Tensor Tensor::silu() const { return mul(sigmoid()); }
Tensor Tensor::sign() const {
  const Tensor zero = c(*this, int64_t{0});
  return ne(zero).where(lt(zero).where(c(*this, int64_t{-1}), c(*this, int64_t{1})), zero);
}
Tensor Tensor::abs() const {
  if (dtype() == DType::Bool || is_unsigned(dtype())) return *this;
  return mul(sign());
}
Tensor Tensor::trunc() const { return is_float(dtype()) ? unary(Op::Trunc) : *this; }
Tensor Tensor::floor() const {
  if (!is_float(dtype())) return *this;
  const Tensor b = trunc();
  return lt(b).where(b.sub(c(b, 1.0)), b);
}
Tensor Tensor::ceil() const {
  if (!is_float(dtype())) return *this;
  const Tensor b = trunc();
  return gt(b).where(b.add(c(b, 1.0)), b);
}
Tensor Tensor::round() const {
  if (!is_float(dtype())) return *this;
  // half to even from trunc and the exact remainder: x + 0.5 is not exact near 2^23, so it is never formed
  const Tensor t = trunc();
  const Tensor rest = sub(t).abs();
  const Tensor odd = t.mul(c(t, 0.5)).trunc().mul(c(t, 2.0)).ne(t);
  const Tensor away = rest.gt(c(rest, 0.5)).logical_or(rest.eq(c(rest, 0.5)).logical_and(odd));
  return away.where(t.add(sign()), t);
}
Tensor Tensor::logical_not() const { return cast(DType::Bool).ne(full({}, true, DType::Bool, device()).expand(shape())); }

Tensor Tensor::add(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  if (a.dtype() == DType::Bool) return a.binary(Op::Or, b);
  return a.binary(Op::Add, b);
}
Tensor Tensor::sub(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  if (a.dtype() == DType::Bool) fail("type", "subtracting bool tensors is not supported; use logical_xor or ne");
  return a.add(b.neg());
}
Tensor Tensor::mul(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  if (a.dtype() == DType::Bool) return a.binary(Op::And, b);
  return a.binary(Op::Mul, b);
}
Tensor Tensor::div(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  return as_float(a).mul(as_float(b).reciprocal());
}
Tensor Tensor::floordiv(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  if (is_float(a.dtype())) return a.div(b).floor();
  if (a.dtype() == DType::Bool) fail("type", "floor division of bool tensors is not supported");
  // truncating quotient, one less where the remainder is non-zero and the signs differ
  const Tensor q = a.binary(Op::IDiv, b);
  if (is_unsigned(a.dtype())) return q;
  const Tensor zero = c(a, int64_t{0});
  const Tensor adjust = a.binary(Op::Mod, b).ne(zero).logical_and(a.lt(zero).ne(b.lt(zero)));
  return adjust.where(q.sub(c(q, int64_t{1})), q);
}
Tensor Tensor::mod(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  return a.sub(a.floordiv(b).mul(b));
}
Tensor Tensor::maximum(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  if (a.dtype() == DType::Bool) return a.binary(Op::Or, b);
  return a.binary(Op::Max, b);
}
Tensor Tensor::minimum(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  return a.inverse().maximum(b.inverse()).inverse();
}
Tensor Tensor::inverse() const {
  if (is_float(dtype())) return neg();
  if (dtype() == DType::Bool) return logical_not();
  return binary(Op::Xor, c(*this, int64_t{-1}));
}
Tensor Tensor::where(const Tensor& a, const Tensor& b) const {
  require_same_device(*this, a);
  require_same_device(*this, b);
  const DType t = promote(a.dtype(), b.dtype());
  const Shape out = broadcast_shape(broadcast_shape(shape(), a.shape()), b.shape());
  const Tensor cond = cast(DType::Bool).broadcast_to(out);
  const Tensor x = a.cast(t).broadcast_to(out), y = b.cast(t).broadcast_to(out);
  if (const auto m = on_each_device({cond, x, y}, [](const std::vector<Tensor>& s) { return s[0].where(s[1], s[2]); })) return *m;
  return Tensor(make_node(Op::Where, t, out, device(), {cond.node(), x.node(), y.node()}));
}
Tensor Tensor::eq(const Tensor& y) const { return ne(y).logical_not(); }
Tensor Tensor::ne(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  return a.binary(Op::CmpNe, b);
}
Tensor Tensor::lt(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  return a.binary(Op::CmpLt, b);
}
Tensor Tensor::gt(const Tensor& y) const { return y.lt(*this); }
// On floats "not greater" would hold for nan; Python's <= does not.
Tensor Tensor::le(const Tensor& y) const {
  if (is_float(promote(dtype(), y.dtype()))) return lt(y).logical_or(eq(y));
  return gt(y).logical_not();
}
Tensor Tensor::ge(const Tensor& y) const { return y.le(*this); }
Tensor Tensor::logical_and(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  if (is_float(a.dtype())) fail("type", "& needs bool or integer tensors, not {}", name(a.dtype()));
  return a.binary(Op::And, b);
}
Tensor Tensor::logical_or(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  if (is_float(a.dtype())) fail("type", "| needs bool or integer tensors, not {}", name(a.dtype()));
  return a.binary(Op::Or, b);
}
Tensor Tensor::bitwise_xor(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  if (is_float(a.dtype())) fail("type", "^ needs bool or integer tensors, not {}", name(a.dtype()));
  return a.binary(Op::Xor, b);
}

// b ** e as tinygrad 0.14 lowers its POW (xpow): exp2(e * log2|b|); a negative base gives nan for an
// exponent that is not an integer (as a cast to int32 says) unless the base is -inf, and the negated
// value for an odd one; x ** 0 is 1 for every x.
Tensor Tensor::pow(const Tensor& y) const {
  const auto [base, e] = broadcasted(*this, y);
  const Tensor fb = as_float(base), fe = as_float(e);
  const Tensor ret = fb.abs().log2().mul(fe).exp2();
  const Tensor non_int = fe.ne(fe.cast(DType::Int32).cast(fe.dtype()));
  const Tensor odd = fe.abs().cast(DType::Int32).mod(c(fe.cast(DType::Int32), int64_t{2})).cast(DType::Bool);
  const double inf = std::numeric_limits<double>::infinity();
  const Tensor negative = non_int.where(fb.ne(c(fb, -inf)).where(c(ret, std::nan("")), ret), odd.where(ret.neg(), ret));
  const Tensor out = fe.eq(c(fe, 0.0)).where(c(ret, 1.0), fb.lt(c(fb, 0.0)).where(negative, ret));
  // an integer base with a tensor exponent: tinygrad truncates the float power (3 ** 5 is 242 there);
  // rounding keeps every exactly representable power exact
  return is_float(base.dtype()) ? out : out.round().cast(base.dtype());
}

namespace {

// x ** e for x already of the result's dtype (see Tensor::pow(ConstValue)).
Tensor const_power(const Tensor& x, double e) {
  if (e < 0) return const_power(x.reciprocal(), -e);
  if (e == 0) return x.ones_like();
  if (std::trunc(e - 0.5) + 0.5 == e) return const_power(x, e - 0.5).mul(x.sqrt());
  if (std::trunc(e) != e) return x.pow(c(x, e));
  const double half = std::floor(e / 2);
  const Tensor y = const_power(x, half);
  const Tensor squared = half > 0 ? y.mul(y) : y;
  if (std::fmod(e, 2) == 0) return squared;
  return half > 0 ? squared.mul(x) : x;
}

}  // namespace

// x ** c for a number c, as tinygrad 0.14's symbolic rules rewrite a constant power: x ** -c is
// (1 / x) ** c, x ** 0 is 1, a half-integer c is x ** (c - 0.5) * sqrt(x), and an integer c is squares
// and products (exact for integers, and x * x for x ** 2); any other c takes the general power.
Tensor Tensor::pow(const ConstValue& exponent) const {
  const Tensor x = broadcasted(*this, scalar_like(*this, exponent)).first;
  const double e = as_double(exponent);
  if (!is_float(x.dtype()) && e < 0) fail("type", "an integer tensor to a negative power needs a float base (x.float() ** {})", e);
  return const_power(x, e);
}

// c ** x for a number c: 1 for c = 1, exp2(x * log2(c)) for c > 0, and the general power otherwise.
Tensor Tensor::rpow(const ConstValue& base) const {
  const auto [b, x] = broadcasted(scalar_like(*this, base), *this);
  const double v = as_double(base);
  if (v == 1) return b;
  if (v <= 0) return b.pow(x);
  const Tensor out = x.mul(c(as_float(x), std::log2(v))).exp2();
  return is_float(b.dtype()) ? out : out.round().cast(b.dtype());
}

}  // namespace tr
