#include "core/base/value_str.h"

#include <cmath>

#include <fmt/format.h>

namespace tr {

std::string const_str(const ConstValue& v, DType t) {
  const ConstValue c = cast_const(v, t);
  if (const bool* b = std::get_if<bool>(&c)) return *b ? "True" : "False";
  if (const int64_t* i = std::get_if<int64_t>(&c)) return std::to_string(*i);
  const double d = std::get<double>(c);
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string tuple_str(const std::vector<int>& xs) {
  if (xs.size() == 1) return fmt::format("({},)", xs[0]);
  return fmt::format("({})", fmt::join(xs, ", "));
}

}  // namespace tr
