// The help table's dtypes, by their canonical names; tinygrad's aliases (float, half, int, ...) find them.
#include "repl/help_table.h"

namespace tr::repl {

std::vector<HelpGroup> dtype_help() {
  return {
      {"dtypes",
       HelpKind::DType,
       {
           {"bool", "bool", "True or False, one byte each: what comparisons give. Summed, bools count as int32.",
            "print((arange(4) > 1).dtype, (arange(4) > 1).sum())"},
           {"int8", "int8", "A signed 8-bit integer, -128 to 127; arithmetic wraps around.",
            "print(tensor([127], dtype=int8) + 1)"},
           {"uint8", "uint8", "An unsigned 8-bit integer, 0 to 255 (tinygrad's uchar); arithmetic wraps around.",
            "print(tensor([250], dtype=uint8) + 10)"},
           {"int16", "int16", "A signed 16-bit integer (short).", "print(arange(3, dtype=int16).dtype)"},
           {"uint16", "uint16", "An unsigned 16-bit integer (ushort).", "print(arange(3).cast(uint16).dtype)"},
           {"int32", "int32",
            "A signed 32-bit integer (int), the default for ints: tensor([1, 2]) and arange(n) are int32.",
            "print(tensor([1, 2]).dtype)"},
           {"uint32", "uint32", "An unsigned 32-bit integer (uint).", "print(arange(3).cast(uint32).dtype)"},
           {"int64", "int64", "A signed 64-bit integer (long).", "print(arange(3).long().dtype)"},
           {"uint64", "uint64", "An unsigned 64-bit integer (ulong).", "print(arange(3).cast(uint64).dtype)"},
           {"float16", "float16",
            "IEEE half precision (half): 11 bits of mantissa, up to 65504. Sums accumulate in float32 and round back; "
            "a half matmul uses the tensor cores where the device has them.",
            "print(tensor([1.0001]).half())"},
           {"bfloat16", "bfloat16", "Brain float: float32's 8 exponent bits with 8 bits of mantissa.",
            "print(tensor([1.5]).cast(bfloat16).dtype)"},
           {"float32", "float32",
            "IEEE single precision (float), the default for floats: tensor([1.5]), rand and int / int are float32.",
            "print(tensor([1.5]).dtype, (arange(2) / 2).dtype)"},
           {"float64", "float64", "IEEE double precision (double).", "print(tensor([0.1], dtype=float64) * 3)"},
       }},
  };
}

}  // namespace tr::repl
