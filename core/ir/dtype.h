#pragma once
// Element types and tinygrad's promotion lattice.
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

namespace tr {

enum class DType : uint8_t {
  Bool, Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float16, BFloat16, Float32, Float64
};
inline constexpr int kNumDTypes = 13;

int itemsize(DType t);
std::string_view name(DType t);        // "float32"
std::string_view short_name(DType t);  // tinygrad's AST spelling: "float", "int", "half", "uchar"
bool is_float(DType t);
bool is_int(DType t);  // integer, bool excluded
bool is_unsigned(DType t);
std::optional<DType> parse_dtype(std::string_view s);  // accepts "float32", "float", "half", "int", ...

// Least upper bound in tinygrad's lattice: bool < {int8, uint8} < int16 ... < int64/uint64 < {float16, bfloat16}
// < float32 < float64.
DType promote(DType a, DType b);
DType least_upper_float(DType t);  // t if float, else float32
DType sum_acc_dtype(DType t);      // the accumulation type of sum(): int32/uint32 for small ints, float32 for half
DType sum_dtype(DType t);          // the type of sum()'s result: half and bfloat16 keep theirs, the rest sum_acc_dtype's

// A scalar as the language and the AST carry it; the dtype that owns it says how to read it.
using ConstValue = std::variant<bool, int64_t, double>;
double as_double(const ConstValue& v);
int64_t as_int(const ConstValue& v);
// Converts v to what a value of dtype t holds (wraps ints, rounds floats to t's precision). A float
// becomes an integer by every backend's one rule: truncated toward zero to int64, saturating at its
// limits (inf too), nan to 0; then wrapped to t's width.
ConstValue cast_const(const ConstValue& v, DType t);
int64_t float_to_int64(double x);  // that rule's first step
// Rounds a double to t's precision (float16/bfloat16/float32), or wraps an integer to t's width.
double round_to(DType t, double x);
int64_t wrap_to(DType t, int64_t x);

// tinygrad's dtypes.min and dtypes.max: -inf and inf for floats, False and True for bool, else the
// integer range's ends.
ConstValue dtype_min(DType t);
ConstValue dtype_max(DType t);

// IEEE half conversions: one rounding to nearest, ties to even, straight from double.
uint16_t half_bits(double d);
float half_bits_to_float(uint16_t h);
// bfloat16 (float32's top 16 bits) from a double rounded to float32, then to nearest bfloat16 with ties to
// even, as torch, tinygrad and ml_dtypes convert (and kernels, which compute bfloat16 in float); NaN stays NaN.
uint16_t bfloat16_bits(double d);
float bfloat16_bits_to_float(uint16_t b);

}  // namespace tr
