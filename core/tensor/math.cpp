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

Tensor Tensor::pow(const Tensor& y) const {
  const auto [base, e] = broadcasted(*this, y);
  const Tensor fb = as_float(base), fe = as_float(e);
  // b ** e = exp(e * log|b|), with the sign of a negative base fixed for odd integer exponents
  const Tensor mag = fb.abs().log().mul(fe).exp();
  const Tensor negative = fb.lt(c(fb, 0.0));
  const Tensor odd = fe.mul(c(fe, 0.5)).trunc().mul(c(fe, 2.0)).ne(fe);
  const Tensor integral = fe.trunc().eq(fe);
  const double inf = std::numeric_limits<double>::infinity();
  // C99's pow (numpy's too) where exp(e * log|b|) is nan or has the wrong sign: a negative base with a
  // fractional exponent is nan unless it is -inf (then |b| ** e); x ** 0 and 1 ** y are 1 even for nan,
  // and (-1) ** ±inf is 1
  const Tensor fractional = fb.eq(c(fb, -inf)).where(mag, c(fe, std::nan("")));
  Tensor ret = negative.where(integral.where(odd.where(mag.neg(), mag), fractional), mag);
  const Tensor one = fe.eq(c(fe, 0.0))
                         .logical_or(fb.eq(c(fb, 1.0)))
                         .logical_or(fb.eq(c(fb, -1.0)).logical_and(fe.abs().eq(c(fe, inf))));
  ret = one.where(c(ret, 1.0), ret);
  return is_float(base.dtype()) ? ret : ret.round().cast(base.dtype());
}

Tensor Tensor::pow(const ConstValue& exponent) const {
  const double e = as_double(exponent);
  if (e == 0) return ones_like();
  if (e < 0 && std::trunc(e) == e) return reciprocal().pow(ConstValue{-e});
  if (e > 0 && e <= 64 && std::trunc(e) == e) {
    // square-and-multiply keeps integer powers exact, as tinygrad does
    const auto n = static_cast<int64_t>(e);
    const Tensor half = n / 2 > 0 ? pow(ConstValue{n / 2}).square() : ones_like();
    return n % 2 ? (n / 2 > 0 ? half.mul(*this) : *this) : half;
  }
  if (e > 0 && e < 64 && std::trunc(e - 0.5) + 0.5 == e) return pow(ConstValue{std::trunc(e - 0.5)}).mul(sqrt());
  return pow(scalar_like(*this, exponent));
}

Tensor Tensor::rpow(const ConstValue& base) const {
  const double b = as_double(base);
  if (b == 1) return mul(scalar_like(*this, 1.0)).ones_like();  // 1 ** nan and 1 ** inf are 1
  if (b > 0) return mul(scalar_like(*this, std::log(b))).exp();
  return scalar_like(*this, base).expand(shape()).pow(*this);
}

}  // namespace tr
