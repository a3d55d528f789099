#pragma once
// The primitive operations that every tensor operation is built from. The same names appear in the
// lazy graph, the kernel AST and the ALU UOps, so one printer serves all three.
#include <cstdint>
#include <string_view>

namespace tr {

enum class Op : uint8_t {
  // sources
  Const,    // a scalar broadcast by a ShapeTracker
  Arange,   // the flat index of each element of a contiguous range, seen through a ShapeTracker
  Copy,     // data brought from the host (or another device) into a buffer
  // unary
  Neg, Exp2, Log2, Sin, Sqrt, Recip, Trunc, Cast,
  Bitcast,  // the same bits read as another dtype of the same item size
  // binary
  Add, Mul, IDiv, Mod,
  Max,     // tinygrad's MAX, a < b ? b : a: a nan in a wins, a nan in b is skipped (relu(nan) is 0)
  MaxNan,  // MAX where a nan on either side wins: the combine of a max reduce, made only by the lowering
  CmpLt, CmpNe, And, Or, Xor,
  // ternary
  Where,
  MulAcc,  // a*b+c rounded once: made only by the lowering's rule for a reduce's sum of products (rules_mulacc.cpp)
  // reduce
  Sum, ReduceMax, Prod,
  // structure
  View,        // a ShapeTracker over its one source
  Contiguous,  // forces its source into its own buffer
  Assign,      // writes its value (source 1) into the buffer of its target (source 0, a realized tensor), in place
  Multi,       // one tensor over several devices: a source per device, each a shard of it or a whole copy (core/tensor/multi.cpp)
};

std::string_view op_name(Op op);  // "ADD", "SUM", "CMPLT", ...
bool is_unary(Op op);
bool is_binary(Op op);
bool is_reduce(Op op);
bool is_elementwise(Op op);  // unary, binary, Where, Cast
bool is_comparison(Op op);   // CmpLt, CmpNe: their result is bool

}  // namespace tr
