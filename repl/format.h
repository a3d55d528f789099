#pragma once
// numpy's print of an array: "11", "[1. 2. 3.]", "[1 2 3]", "[ True False]", "[[1 2]\n [3 4]]", with
// numpy's column alignment, line wrapping at 75 columns and "..." summaries past 1000 elements.
#include <string>

#include "core/ir/dtype.h"
#include "repl/host_array.h"

namespace tr::repl {

std::string format_array(const HostArray& a);

// One element as numpy prints a 0-d array and Python a scalar: "1.5", "1.0", "1e-05", "True", "11".
std::string format_scalar(const ConstValue& v, DType t);

}  // namespace tr::repl
