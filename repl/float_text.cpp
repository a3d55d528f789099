#include "repl/float_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace tr::repl {
namespace {

// Splits scientific text "d.ddde±x" (digits and exponent) into a Decimal.
Decimal parse_scientific(std::string_view s, bool negative) {
  Decimal d{negative, "", 0};
  const size_t e = s.find('e');
  for (char c : s.substr(0, e)) {
    if (c != '.') d.digits += c;
  }
  const std::string_view exp = s.substr(e + 1);
  std::from_chars(exp.data() + (exp[0] == '+' ? 1 : 0), exp.data() + exp.size(), d.exponent);
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  return d;
}

// to_chars gives the shortest round-trip digits for float and double; half has no such overload, so
// the digit count is searched: the correctly rounded p-digit decimal is the best p-digit candidate.
std::string shortest_scientific(double a, DType t) {
  char buf[64];
  if (t == DType::Float32) {
    const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(a), std::chars_format::scientific);
    return std::string(buf, r.ptr);
  }
  if (t == DType::Float16) {
    for (int p = 1; p < 17; p++) {
      std::snprintf(buf, sizeof buf, "%.*e", p - 1, a);
      if (round_to(DType::Float16, std::strtod(buf, nullptr)) == a) return buf;
    }
  }
  const auto r = std::to_chars(buf, buf + sizeof buf, a, std::chars_format::scientific);
  return std::string(buf, r.ptr);
}

}  // namespace

Decimal shortest_decimal(double v, DType t) {
  if (v == 0) return Decimal{std::signbit(v), "0", 0};
  return parse_scientific(shortest_scientific(std::fabs(v), t), v < 0);
}

Decimal rounded_decimal(double v, int significant) {
  if (v == 0) return Decimal{std::signbit(v), "0", 0};
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", std::max(significant, 1) - 1, std::fabs(v));
  return parse_scientific(buf, v < 0);
}

PositionalParts positional_parts(const Decimal& d) {
  if (d.exponent < 0) return {"0", std::string(static_cast<size_t>(-d.exponent - 1), '0') + d.digits};
  const size_t int_len = static_cast<size_t>(d.exponent) + 1;
  PositionalParts p{d.digits.substr(0, int_len), d.digits.size() > int_len ? d.digits.substr(int_len) : ""};
  p.int_part.resize(int_len, '0');
  return p;
}

std::string python_float(double v, DType t) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  const Decimal d = shortest_decimal(v, t);
  const std::string sign = d.negative ? "-" : "";
  // numpy keeps a scalar positional below 1e3 for half, 1e6 for float and 1e16 (as Python) for double
  const double positional_limit = t == DType::Float16 ? 1e3 : t == DType::Float32 ? 1e6 : 1e16;
  if (v == 0 || (std::fabs(v) >= 1e-4 && std::fabs(v) < positional_limit)) {
    const auto [int_part, frac_part] = positional_parts(d);
    return sign + int_part + "." + (frac_part.empty() ? "0" : frac_part);
  }
  const std::string mantissa = d.digits.size() > 1 ? d.digits.substr(0, 1) + "." + d.digits.substr(1) : d.digits;
  return fmt::format("{}{}e{}{:02d}", sign, mantissa, d.exponent < 0 ? '-' : '+', std::abs(d.exponent));
}

}  // namespace tr::repl
