#pragma once
// The shortest decimal that reads back as the same value of a float dtype, and Python's repr built
// on it. Printing a float32 0.1 gives "0.1", not the double 0.10000000149011612.
#include <string>

#include "core/ir/dtype.h"

namespace tr::repl {

// A finite value as sign, significant digits and decimal exponent: -1.25e3 is {true, "125", 3}.
struct Decimal {
  bool negative = false;
  std::string digits;  // no leading or trailing zeros, except "0" for zero
  int exponent = 0;    // of the first digit
};

// The fewest digits that round back to v at dtype t's precision (t a float dtype; v already of that precision).
Decimal shortest_decimal(double v, DType t);

// v correctly rounded to `significant` digits (at least 1), trailing zeros dropped.
Decimal rounded_decimal(double v, int significant);

// The digits of |d| before and after the decimal point, without padding: 1.25e3 is {"1250", ""}, 1.5e-2 is {"0",
// "015"}.
struct PositionalParts {
  std::string int_part, frac_part;
};
PositionalParts positional_parts(const Decimal& d);

// Python's repr of a float, and numpy's str of a float scalar of dtype t: "0.1", "1.0", "1e-05",
// "1.5e+16", "inf", "nan". Positional from 1e-4 up to 1e16 (float32: 1e6, float16: 1e3), as numpy does.
std::string python_float(double v, DType t = DType::Float64);
// The dtype whose numpy formatting a value of t takes: bfloat16, which numpy lacks, prints as the float32
// array that tinygrad's numpy() gives for it.
inline DType numpy_float(DType t) { return t == DType::BFloat16 ? DType::Float32 : t; }

}  // namespace tr::repl
