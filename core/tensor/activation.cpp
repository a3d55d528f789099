// Activations and the element-wise math built on them, each from the primitives as tinygrad 0.14
// builds it, so that each fuses into its neighbours and has a gradient through core/grad. A Python
// number in tinygrad's formula is a scalar_like constant here: it keeps a float tensor's dtype and
// makes an int tensor's result float where tinygrad's does.
#include <cmath>
#include <numbers>

#include "core/base/error.h"
#include "core/tensor/tensor.h"

namespace tr {
namespace {

Tensor k(const Tensor& like, double v) { return Tensor::scalar_like(like, v); }
Tensor k(const Tensor& like, int64_t v) { return Tensor::scalar_like(like, v); }

// c[0] * x^(n-1) + ... + c[n-1], by Horner's rule
Tensor poly(const Tensor& x, std::initializer_list<double> coefficients) {
  std::optional<Tensor> acc;
  for (const double c : coefficients) acc = acc ? acc->mul(x).add(k(x, c)) : k(x, c).expand(x.shape());
  return *acc;
}

}  // namespace

Tensor Tensor::leaky_relu(double neg_slope) const { return lt(k(*this, int64_t{0})).where(k(*this, neg_slope).mul(*this), *this); }
Tensor Tensor::elu(double alpha) const {
  return relu().sub(k(*this, alpha).mul(k(*this, 1.0).sub(exp()).relu()));
}
Tensor Tensor::celu(double alpha) const {
  const Tensor neg = k(*this, alpha).mul(div(k(*this, alpha)).exp().sub(k(*this, 1.0)));
  return maximum(k(*this, int64_t{0})).add(neg.minimum(k(neg, int64_t{0})));
}
Tensor Tensor::selu(double alpha, double gamma) const {
  const Tensor neg = k(*this, alpha).mul(exp().sub(k(*this, 1.0)));
  return k(*this, gamma).mul(ge(k(*this, int64_t{0})).where(*this, neg));
}
Tensor Tensor::softplus(double beta) const {
  return k(*this, 1.0 / beta).mul(mul(k(*this, beta)).logaddexp(k(*this, 0.0)));
}
Tensor Tensor::mish() const { return mul(softplus().tanh()); }
Tensor Tensor::relu6() const { return relu().sub(sub(k(*this, int64_t{6})).relu()); }
Tensor Tensor::hardswish() const { return mul(add(k(*this, int64_t{3})).relu6()).mul(k(*this, 1.0 / 6)); }
Tensor Tensor::hardsigmoid(double alpha, double beta) const {
  const Tensor y = k(*this, alpha).mul(*this).add(k(*this, beta));
  return y.relu().sub(y.sub(k(y, 1.0)).relu());
}
// tinygrad's clip: the lower bound first, then the upper, each a where
Tensor Tensor::hardtanh(ConstValue min_val, ConstValue max_val) const {
  const Tensor lo = scalar_like(*this, min_val), hi = scalar_like(*this, max_val);
  const Tensor low = lt(lo).where(lo, *this);
  return low.gt(hi).where(hi, low);
}
Tensor Tensor::quick_gelu() const { return mul(mul(k(*this, 1.702)).sigmoid()); }
Tensor Tensor::swish() const { return mul(sigmoid()); }
Tensor Tensor::logsigmoid() const { return neg().softplus().neg(); }
Tensor Tensor::softsign() const { return div(k(*this, int64_t{1}).add(abs())); }
Tensor Tensor::softmin(int axis, std::optional<DType> dtype) const { return neg().softmax(axis, dtype); }

Tensor Tensor::erf() const {
  const Tensor t = k(*this, 1.0).div(k(*this, 1.0).add(k(*this, 0.3275911).mul(abs())));
  const Tensor p = poly(t, {1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592});
  return sign().mul(k(t, 1.0).sub(t.mul(p).mul(square().neg().exp())));
}
Tensor Tensor::log10() const { return log2().mul(k(*this, std::log10(2.0))); }
Tensor Tensor::sinh() const { return exp().sub(neg().exp()).div(k(*this, int64_t{2})); }
Tensor Tensor::cosh() const { return exp().add(neg().exp()).div(k(*this, int64_t{2})); }
Tensor Tensor::asin() const {
  const Tensor a = abs();
  const Tensor p = poly(a, {-0.0012624911, 0.0066700901, -0.0170881256, 0.0308918810, -0.0501743046, 0.0889789874,
                            -0.2145988016, 1.5707963050});
  const Tensor x = k(p, std::numbers::pi / 2).sub(k(a, 1.0).sub(a).sqrt().mul(p));
  return sign().mul(x);
}
Tensor Tensor::acos() const { return k(*this, std::numbers::pi / 2).sub(asin()); }
Tensor Tensor::atan() const { return div(k(*this, int64_t{1}).add(mul(*this)).sqrt()).asin(); }

Tensor Tensor::logaddexp(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  const Tensor m = a.maximum(b);
  return a.sub(m).exp().add(b.sub(m).exp()).log().add(m);
}
Tensor Tensor::lerp(const Tensor& end, const Tensor& weight) const { return add(end.sub(*this).mul(weight)); }
Tensor Tensor::lerp_fixed_point(const Tensor& end, const Tensor& weight) const {
  constexpr int64_t kBits = 7;  // tinygrad's W_PREC
  const Tensor w = weight.mul(k(weight, double{1 << kBits})).add(k(weight, 0.5)).cast(DType::Int16);
  const Tensor step = end.sub(*this).cast(DType::Int8).mul(w).add(k(w, int64_t{1} << (kBits - 1)));
  // a shift right of a uint16 by kBits is its floor quotient by 2**kBits
  const Tensor shifted = step.cast(DType::UInt16).floordiv(k(step.cast(DType::UInt16), int64_t{1} << kBits));
  return add(shifted).cast(DType::UInt8);
}
Tensor Tensor::fmod(const Tensor& y) const {
  const auto [a, b] = broadcasted(*this, y);
  if (a.dtype() == DType::Bool) fail("type", "fmod of bool tensors is not supported");
  if (!is_float(a.dtype())) return a.binary(Op::Mod, b);
  return a.sub(a.div(b).trunc().mul(b));
}

}  // namespace tr
