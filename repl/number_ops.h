#pragma once
// Python's arithmetic and comparisons on plain numbers (bool, int, float). ints are 64-bit here, so
// an overflow is an error instead of a bignum. Errors are tr::Error: "zero" for a division by zero,
// "value" for an overflow or a negative number to a fractional power.
#include "core/ir/dtype.h"
#include "repl/syntax.h"

namespace tr::repl {

ConstValue number_binary(BinaryOp op, const ConstValue& a, const ConstValue& b);
bool number_compare(CompareOp op, const ConstValue& a, const ConstValue& b);

}  // namespace tr::repl
