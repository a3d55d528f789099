#include "core/ir/dtype.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace tr {
namespace {

struct Info {
  std::string_view name, short_name;
  int itemsize;
  int priority;  // tinygrad's dtype priority: picks the smallest common upper type
};

constexpr std::array<Info, kNumDTypes> kInfo{{
    {"bool", "bool", 1, -1},       {"int8", "char", 1, 1},      {"uint8", "uchar", 1, 2},
    {"int16", "short", 2, 3},      {"uint16", "ushort", 2, 4},  {"int32", "int", 4, 5},
    {"uint32", "uint", 4, 6},      {"int64", "long", 8, 7},     {"uint64", "ulong", 8, 8},
    {"float16", "half", 2, 11},    {"bfloat16", "bfloat16", 2, 12}, {"float32", "float", 4, 13},
    {"float64", "double", 8, 14},
}};

const Info& info(DType t) { return kInfo[static_cast<size_t>(t)]; }

// Direct parents in tinygrad's promotion lattice (fp8 left out: it does not exist here).
std::vector<DType> parents(DType t) {
  using D = DType;
  switch (t) {
    case D::Bool: return {D::Int8, D::UInt8};
    case D::Int8: return {D::Int16};
    case D::UInt8: return {D::Int16, D::UInt16};
    case D::Int16: return {D::Int32};
    case D::UInt16: return {D::Int32, D::UInt32};
    case D::Int32: return {D::Int64};
    case D::UInt32: return {D::Int64, D::UInt64};
    case D::Int64:
    case D::UInt64: return {D::Float16, D::BFloat16};
    case D::Float16:
    case D::BFloat16: return {D::Float32};
    case D::Float32: return {D::Float64};
    case D::Float64: return {};
  }
  return {};
}

uint32_t upper_set(DType t) {
  uint32_t set = 1u << static_cast<int>(t);
  for (DType p : parents(t)) set |= upper_set(p);
  return set;
}

}  // namespace

int itemsize(DType t) { return info(t).itemsize; }
std::string_view name(DType t) { return info(t).name; }
std::string_view short_name(DType t) { return info(t).short_name; }
bool is_float(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 || t == DType::Float64;
}
bool is_int(DType t) { return !is_float(t) && t != DType::Bool; }
bool is_unsigned(DType t) {
  return t == DType::UInt8 || t == DType::UInt16 || t == DType::UInt32 || t == DType::UInt64;
}

std::optional<DType> parse_dtype(std::string_view s) {
  for (int i = 0; i < kNumDTypes; i++) {
    if (kInfo[i].name == s) return static_cast<DType>(i);
  }
  if (s == "half") return DType::Float16;
  if (s == "float") return DType::Float32;
  if (s == "double") return DType::Float64;
  if (s == "int") return DType::Int32;
  if (s == "long") return DType::Int64;
  return std::nullopt;
}

DType promote(DType a, DType b) {
  const uint32_t common = upper_set(a) & upper_set(b);
  DType best = DType::Float64;
  for (int i = 0; i < kNumDTypes; i++) {
    if ((common >> i & 1u) && kInfo[i].priority < info(best).priority) best = static_cast<DType>(i);
  }
  return best;
}

DType least_upper_float(DType t) { return is_float(t) ? t : DType::Float32; }

DType sum_acc_dtype(DType t) {
  if (is_unsigned(t)) return promote(t, DType::UInt32);
  if (is_int(t) || t == DType::Bool) return promote(t, DType::Int32);
  return promote(t, DType::Float32);
}

DType sum_dtype(DType t) { return t == DType::Float16 || t == DType::BFloat16 ? t : sum_acc_dtype(t); }

double as_double(const ConstValue& v) {
  return std::visit([](auto x) { return static_cast<double>(x); }, v);
}

int64_t as_int(const ConstValue& v) {
  if (const double* d = std::get_if<double>(&v)) {
    if (!std::isfinite(*d)) return 0;
    if (*d >= 9.2233720368547758e18) return INT64_MAX;
    if (*d <= -9.2233720368547758e18) return INT64_MIN;
    return static_cast<int64_t>(*d);
  }
  return std::visit([](auto x) { return static_cast<int64_t>(x); }, v);
}

uint16_t half_bits(double d) {
  const uint16_t sign = std::signbit(d) ? 0x8000u : 0u;
  const double a = std::fabs(d);
  if (std::isnan(d)) return sign | 0x7e00u;
  if (a >= 65520.0) return sign | 0x7c00u;  // at or past the midpoint above 65504: infinity
  // Scale onto the half's grid (exact: a power of two) and round once, ties to even.
  if (a < 0x1p-14) return sign | static_cast<uint16_t>(std::nearbyint(a * 0x1p24));  // subnormal (or the smallest normal)
  int e;
  std::frexp(a, &e);  // a = m * 2^e with m in [0.5, 1): the half exponent is e - 1
  double q = std::nearbyint(std::ldexp(a, 11 - e));  // in [1024, 2048]
  if (q == 2048.0) {
    q = 1024.0;
    e++;
  }
  if (e - 1 + 15 >= 31) return sign | 0x7c00u;
  return sign | static_cast<uint16_t>(((e - 1 + 15) << 10) | (static_cast<int>(q) - 1024));
}

float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t man = h & 0x3ffu;
  if (exp == 0) {
    const float v = static_cast<float>(man) / 16777216.0f;
    return sign ? -v : v;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

uint16_t bfloat16_bits(double d) {
  if (std::isnan(d)) return std::signbit(d) ? 0xffc0u : 0x7fc0u;
  const uint32_t bits = std::bit_cast<uint32_t>(static_cast<float>(d));
  return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

float bfloat16_bits_to_float(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

double round_to(DType t, double x) {
  switch (t) {
    case DType::Float16: return half_bits_to_float(half_bits(x));
    case DType::BFloat16: return bfloat16_bits_to_float(bfloat16_bits(x));
    case DType::Float32: return static_cast<float>(x);
    case DType::Float64: return x;
    // bool and the integers hold whole numbers: x truncated, then wrapped to t's width
    case DType::Bool: case DType::Int8: case DType::UInt8: case DType::Int16: case DType::UInt16:
    case DType::Int32: case DType::UInt32: case DType::Int64: case DType::UInt64: break;
  }
  return static_cast<double>(wrap_to(t, as_int(ConstValue{x})));
}

int64_t wrap_to(DType t, int64_t x) {
  switch (t) {
    case DType::Bool: return x != 0;
    case DType::Int8: return static_cast<int8_t>(x);
    case DType::UInt8: return static_cast<uint8_t>(x);
    case DType::Int16: return static_cast<int16_t>(x);
    case DType::UInt16: return static_cast<uint16_t>(x);
    case DType::Int32: return static_cast<int32_t>(x);
    case DType::UInt32: return static_cast<uint32_t>(x);
    // 64-bit integers hold every int64_t as it is; floats have no integer width to wrap to
    case DType::Int64: case DType::UInt64: case DType::Float16: case DType::BFloat16: case DType::Float32:
    case DType::Float64: break;
  }
  return x;
}

int64_t float_to_int64(double x) {
  if (std::isnan(x)) return 0;
  if (x >= 9.2233720368547758e18) return INT64_MAX;
  if (x < -9.2233720368547758e18) return INT64_MIN;
  return static_cast<int64_t>(x);
}

ConstValue cast_const(const ConstValue& v, DType t) {
  if (t == DType::Bool) return std::visit([](auto x) { return x != 0; }, v);
  if (is_float(t)) return round_to(t, as_double(v));
  if (const double* d = std::get_if<double>(&v)) return wrap_to(t, float_to_int64(*d));
  return wrap_to(t, as_int(v));
}

}  // namespace tr

namespace tr {

ConstValue dtype_min(DType t) {
  if (is_float(t)) return -std::numeric_limits<double>::infinity();
  if (t == DType::Bool) return false;
  if (is_unsigned(t)) return int64_t{0};
  return wrap_to(t, std::numeric_limits<int64_t>::min() >> (64 - 8 * itemsize(t)));
}

ConstValue dtype_max(DType t) {
  if (is_float(t)) return std::numeric_limits<double>::infinity();
  if (t == DType::Bool) return true;
  // all ones: the unsigned maximum (uint64's read back from its int64 bits), or the signed one below the sign bit
  if (is_unsigned(t)) return wrap_to(t, -1);
  return std::numeric_limits<int64_t>::max() >> (64 - 8 * itemsize(t));
}

}  // namespace tr
