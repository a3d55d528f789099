// tinygrad's bitcast: the same bits read as another dtype, one BITCAST node that every renderer
// spells (a union in C, as_type in OpenCL and Metal, CUDA's __float_as_int family, LLVM's bitcast)
// and the reference evaluator computes from the bytes.
#include "core/error.h"
#include "core/tensor.h"

namespace tr {

Tensor Tensor::bitcast(DType t) const {
  if (t == dtype()) return *this;
  if (itemsize(t) != itemsize(dtype()))
    fail("type", "bitcast needs dtypes of one item size: {} has {} bytes, {} has {}", name(dtype()), itemsize(dtype()),
         name(t), itemsize(t));
  // bool is one bit in registers, and some backends keep float16 in float registers: neither has its
  // bytes at hand in a kernel
  for (const DType d : {dtype(), t})
    if (d == DType::Bool || d == DType::Float16) fail("type", "bitcast to or from {} is not supported", name(d));
  return Tensor(make_node(Op::Bitcast, t, shape(), device(), {node()}));
}

}  // namespace tr
