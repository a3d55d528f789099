// tinygrad's bitcast: the same bits read as another dtype. Between dtypes of one item size it is one
// BITCAST node that every renderer spells (a union in C, as_type in OpenCL and Metal, CUDA's
// __float_as_int family, LLVM's bitcast) and the reference evaluator computes from the bytes. Between
// item sizes the last dim is rescaled, as tinygrad's: the bits go through unsigned ints of each size,
// several small items shifted into one large (little-endian: the first the lowest bytes), or one large
// cut into small by shifts. float16's bits are computed from its value.
#include "core/base/error.h"
#include "core/tensor/tensor.h"
#include "core/tensor/layout.h"
#include "core/tensor/logic.h"
#include "core/tensor/multi.h"

namespace tr {
namespace {

DType unsigned_of(int bytes) {
  switch (bytes) {
    case 1: return DType::UInt8;
    case 2: return DType::UInt16;
    case 4: return DType::UInt32;
    default: return DType::UInt64;
  }
}

// Shifts of unsigned x by a constant: a product or a floor quotient by a power of two, one multiply or
// divide in a kernel (lshift and rshift take a tensor of counts, which a constant only folds through
// when nothing pads it).
Tensor shl(const Tensor& x, int bits) { return x.mul(Tensor::scalar_like(x, int64_t{1} << bits)); }
Tensor shr(const Tensor& x, int bits) { return x.floordiv(Tensor::scalar_like(x, int64_t{1} << bits)); }

// The bits of float16 values are composed from those of the float32 that holds each value exactly
// (and back): some backends keep float16 in float registers, where its bytes are not at hand.
struct Bits {
  Tensor x;  // uint32
  Tensor k(int64_t v) const { return Tensor::scalar_like(x, v); }
  Tensor field(int shift, int64_t mask) const { return bitwise_and(shr(x, shift), k(mask)); }
};

Tensor half_to_bits(const Tensor& h) {
  const Bits b{h.cast(DType::Float32).bitcast(DType::UInt32)};
  const Tensor e = b.field(23, 0xff), m = b.field(0, 0x7fffff);
  const Tensor normal = bitwise_or(shl(e.sub(b.k(112)), 10), shr(m, 13));
  // a float16 subnormal is exact in float32 with exponent 103 to 112: its mantissa, the implicit bit
  // included, shifted down to units of 2^-24
  const Tensor is_sub = e.ge(b.k(103)).logical_and(e.le(b.k(112)));
  const Tensor sub = rshift(bitwise_or(m, b.k(0x800000)), is_sub.where(b.k(126).sub(e), b.k(0)));
  const Tensor special = bitwise_or(b.k(0x7c00), shr(m, 13));  // inf and nan, the payload kept
  const Tensor mag = e.eq(b.k(255)).where(special, e.ge(b.k(113)).where(normal, is_sub.where(sub, b.k(0))));
  return bitwise_or(b.field(16, 0x8000), mag).cast(DType::UInt16);
}

Tensor bits_to_half(const Tensor& bits) {
  const Bits b{bits.cast(DType::UInt32)};
  const Tensor e = b.field(10, 0x1f), m = b.field(0, 0x3ff);
  const Tensor normal = bitwise_or(shl(e.add(b.k(112)), 23), shl(m, 13));
  const Tensor special = bitwise_or(b.k(0x7f800000), shl(m, 13));
  const Tensor sub = m.cast(DType::Float32).mul(Tensor::full({}, 0x1p-24, DType::Float32, bits.device())).bitcast(DType::UInt32);
  const Tensor mag = e.eq(b.k(31)).where(special, e.eq(b.k(0)).where(sub, normal));
  return bitwise_or(shl(b.field(15, 1), 31), mag).bitcast(DType::Float32).cast(DType::Float16);
}

std::vector<std::optional<Range>> last_item(int ndim, int64_t i) {
  std::vector<std::optional<Range>> cut(static_cast<size_t>(ndim));
  cut.back() = Range{i, i + 1};
  return cut;
}

}  // namespace

Tensor Tensor::bitcast(DType t) const {
  if (t == dtype()) return *this;
  // bool is one bit in registers: it has no bytes at hand in a kernel
  for (const DType d : {dtype(), t})
    if (d == DType::Bool) fail("type", "bitcast to or from {} is not supported", name(d));
  if (dtype() == DType::Float16) return half_to_bits(*this).bitcast(t);
  if (t == DType::Float16) return bits_to_half(bitcast(DType::UInt16));
  const int from = itemsize(dtype()), to = itemsize(t);
  if (const auto m = on_each_device({*this}, [&](const std::vector<Tensor>& s) { return s[0].bitcast(t); })) return *m;
  if (from == to) return Tensor(make_node(Op::Bitcast, t, shape(), device(), {node()}));
  if (ndim() == 0 || shape().back() * from % to != 0)
    fail("shape", "bitcast from {} to {} needs a last dim of a whole number of {}-byte items, got shape {}", name(dtype()),
         name(t), to, shape_str(shape()));
  const Tensor bits = bitcast(unsigned_of(from));
  const DType wide = unsigned_of(to);
  if (to > from) {
    const int64_t k = to / from;
    Shape grouped = shape();
    grouped.back() /= k;
    grouped.push_back(k);
    const Tensor parts = bits.reshape(grouped).cast(wide);
    Tensor joined = parts.shrink(last_item(parts.ndim(), 0)).squeeze(-1);
    for (int64_t i = 1; i < k; i++)
      joined = bitwise_or(joined, shl(parts.shrink(last_item(parts.ndim(), i)).squeeze(-1), static_cast<int>(8 * i * from)));
    return joined.bitcast(t);
  }
  std::vector<Tensor> pieces;
  for (int64_t i = 0; i < from / to; i++) pieces.push_back(shr(bits, static_cast<int>(8 * i * to)).cast(wide));
  return stack(pieces, -1).flatten(-2).bitcast(t);
}

}  // namespace tr
