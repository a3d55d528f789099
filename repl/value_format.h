#pragma once
// Text of values as Python shows them: str() for print, repr() for an interactive echo.
#include <string>

#include "repl/value.h"

namespace tr::repl {

// print's text: a tensor realized and printed numpy-style, a string bare, the rest as repr.
std::string str_value(const Value& v);

// The echo of an expression statement: strings quoted, a tensor summarised without running anything,
// e.g. "<Tensor (2, 3) dtypes.float on CPU, lazy>".
std::string repr_value(const Value& v);

// tinygrad's spelling of a dtype: "dtypes.float", "dtypes.int", "dtypes.bool".
std::string dtype_repr(DType t);

}  // namespace tr::repl
