#pragma once
// Python-style text of scalars and tuples, shared by every IR printer.
#include <string>
#include <vector>

#include "core/ir/dtype.h"

namespace tr {

std::string const_str(const ConstValue& v, DType t);  // "2", "2.0", "True", "-inf", "nan"
std::string tuple_str(const std::vector<int>& xs);    // "(0,)", "(1, 2)", "()"

}  // namespace tr
