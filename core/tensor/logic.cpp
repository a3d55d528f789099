// Tests, clamps, masks and bitwise ops, each built from compares, where and the logical primitives
// as tinygrad builds them, so they fuse into whatever uses them.
#include "core/tensor/logic.h"

#include <limits>

#include "core/base/error.h"

namespace tr {
namespace {

Tensor constant(const Tensor& like, ConstValue v) { return Tensor::scalar_like(like, v); }

void require_bits(const Tensor& x, const char* op) {
  if (is_float(x.dtype())) fail("type", "{} needs bool or integer tensors, not {}", op, name(x.dtype()));
}

void require_int(const Tensor& x, const char* op, int64_t bits) {
  if (!is_int(x.dtype())) fail("type", "{} needs an integer tensor, not {}", op, name(x.dtype()));
  if (bits < 0 || bits >= 8 * itemsize(x.dtype()))
    fail("value", "{} by {} bits is out of range for {}", op, bits, name(x.dtype()));
}

// 2**bits in dtype t, from the six low bits of the count: a product of where()s, exact in integers.
Tensor powers_of_two(const Tensor& bits, DType t) {
  const Tensor one = Tensor::full({}, int64_t{1}, t, bits.device());
  Tensor out = one.expand(bits.shape());
  for (int b = 0; b < 6; b++) {
    const Tensor set = bits.logical_and(Tensor::full({}, int64_t{1} << b, bits.dtype(), bits.device()))
                           .ne(Tensor::full({}, int64_t{0}, bits.dtype(), bits.device()));
    const Tensor factor = Tensor::full({}, static_cast<int64_t>(uint64_t{1} << (1 << b)), t, bits.device());
    out = out.mul(set.where(factor, one));
  }
  return out;
}

void require_counts(const Tensor& x, const Tensor& bits, const char* op) {
  if (!is_int(x.dtype())) fail("type", "{} needs an integer tensor, not {}", op, name(x.dtype()));
  if (!is_int(bits.dtype())) fail("type", "{} needs integer shift counts, not {}", op, name(bits.dtype()));
}

}  // namespace

Tensor clip(const Tensor& x, const std::optional<Tensor>& lo, const std::optional<Tensor>& hi) {
  if (!lo && !hi) fail("value", "clip needs at least one of min_ and max_");
  const Tensor low = lo ? x.lt(*lo).where(*lo, x) : x;
  return hi ? low.gt(*hi).where(*hi, low) : low;
}

Tensor masked_fill(const Tensor& x, const Tensor& mask, const Tensor& value) { return mask.where(value, x); }

Tensor isnan(const Tensor& x) { return x.ne(x); }

Tensor isinf(const Tensor& x, bool detect_positive, bool detect_negative) {
  const double inf = std::numeric_limits<double>::infinity();
  const Tensor pos = x.eq(constant(x, inf)).logical_and(Tensor::full({}, detect_positive, DType::Bool, x.device()));
  const Tensor neg = x.eq(constant(x, -inf)).logical_and(Tensor::full({}, detect_negative, DType::Bool, x.device()));
  return pos.logical_or(neg);
}

Tensor isfinite(const Tensor& x) { return isinf(x).logical_or(isnan(x)).logical_not(); }

Tensor isclose(const Tensor& x, const Tensor& other, double rtol, double atol, bool equal_nan) {
  const Tensor near = x.sub(other).abs().le(constant(other, atol).add(constant(other, rtol).mul(other.abs())));
  const Tensor finite = isfinite(x).logical_and(isfinite(other)).logical_and(near);
  const Tensor infinite = isinf(x).logical_or(isinf(other)).logical_and(x.eq(other));
  const Tensor nan = isnan(x).logical_and(isnan(other)).logical_and(Tensor::full({}, equal_nan, DType::Bool, x.device()));
  return finite.logical_or(infinite).logical_or(nan);
}

Tensor any(const Tensor& x, const Axes& axis, bool keepdim) {
  const Tensor b = x.cast(DType::Bool);
  // a max over nothing has no identity; a count over nothing is 0, which is False
  if (x.numel() == 0) return b.sum(axis, keepdim).ne(Tensor::full({}, int64_t{0}, DType::Int32, x.device()));
  return b.max(axis, keepdim);
}

Tensor all(const Tensor& x, const Axes& axis, bool keepdim) { return any(x.logical_not(), axis, keepdim).logical_not(); }

Tensor bitwise_and(const Tensor& x, const Tensor& y) {
  require_bits(x, "bitwise_and");
  return x.logical_and(y);
}

Tensor bitwise_or(const Tensor& x, const Tensor& y) {
  require_bits(x, "bitwise_or");
  return x.logical_or(y);
}

Tensor bitwise_xor(const Tensor& x, const Tensor& y) { return x.bitwise_xor(y); }

Tensor bitwise_not(const Tensor& x) {
  require_bits(x, "bitwise_not");
  if (x.dtype() == DType::Bool) return x.logical_not();
  // every bit set: -1 for a signed type, the largest value for an unsigned one
  const int64_t ones = is_unsigned(x.dtype()) ? wrap_to(x.dtype(), -1) : -1;
  return x.bitwise_xor(Tensor::full({}, ones, x.dtype(), x.device()));
}

Tensor lshift(const Tensor& x, int64_t bits) {
  require_int(x, "<<", bits);
  return lshift(x, Tensor::full({}, bits, DType::Int32, x.device()));
}

Tensor rshift(const Tensor& x, int64_t bits) {
  require_int(x, ">>", bits);
  return rshift(x, Tensor::full({}, bits, DType::Int32, x.device()));
}

Tensor lshift(const Tensor& x, const Tensor& bits) {
  require_counts(x, bits, "<<");
  return x.mul(powers_of_two(bits, x.dtype()));
}

Tensor rshift(const Tensor& x, const Tensor& bits) {
  require_counts(x, bits, ">>");
  // floor quotients are the arithmetic shift; in the 64-bit type of x's signedness and in two halves,
  // so that no power of two reaches 2**63
  const DType wide = is_unsigned(x.dtype()) ? DType::UInt64 : DType::Int64;
  const Tensor half = bits.floordiv(Tensor::full({}, int64_t{2}, bits.dtype(), bits.device()));
  return x.cast(wide).floordiv(powers_of_two(half, wide)).floordiv(powers_of_two(bits.sub(half), wide)).cast(x.dtype());
}

}  // namespace tr
