#include "core/runtime/buffer.h"

#include <cstring>

#include <unistd.h>

#include "core/base/error.h"

namespace tr {
namespace {

template <typename T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void store(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

}  // namespace

ConstValue HostData::get(int64_t i) const {
  const std::byte* p = bytes.data() + i * itemsize(dtype);
  switch (dtype) {
    case DType::Bool: return load<uint8_t>(p) != 0;
    case DType::Int8: return int64_t{load<int8_t>(p)};
    case DType::UInt8: return int64_t{load<uint8_t>(p)};
    case DType::Int16: return int64_t{load<int16_t>(p)};
    case DType::UInt16: return int64_t{load<uint16_t>(p)};
    case DType::Int32: return int64_t{load<int32_t>(p)};
    case DType::UInt32: return int64_t{load<uint32_t>(p)};
    case DType::Int64: return load<int64_t>(p);
    case DType::UInt64: return static_cast<int64_t>(load<uint64_t>(p));
    case DType::Float16: return static_cast<double>(half_bits_to_float(load<uint16_t>(p)));
    case DType::BFloat16: return static_cast<double>(bfloat16_bits_to_float(load<uint16_t>(p)));
    case DType::Float32: return static_cast<double>(load<float>(p));
    case DType::Float64: return load<double>(p);
  }
  return int64_t{0};
}

void HostData::set(int64_t i, const ConstValue& v) {
  std::byte* p = bytes.data() + i * itemsize(dtype);
  const ConstValue c = cast_const(v, dtype);
  switch (dtype) {
    case DType::Bool: store<uint8_t>(p, std::get<bool>(c) ? 1 : 0); break;
    case DType::Int8: store(p, static_cast<int8_t>(std::get<int64_t>(c))); break;
    case DType::UInt8: store(p, static_cast<uint8_t>(std::get<int64_t>(c))); break;
    case DType::Int16: store(p, static_cast<int16_t>(std::get<int64_t>(c))); break;
    case DType::UInt16: store(p, static_cast<uint16_t>(std::get<int64_t>(c))); break;
    case DType::Int32: store(p, static_cast<int32_t>(std::get<int64_t>(c))); break;
    case DType::UInt32: store(p, static_cast<uint32_t>(std::get<int64_t>(c))); break;
    case DType::Int64: store(p, std::get<int64_t>(c)); break;
    case DType::UInt64: store(p, static_cast<uint64_t>(std::get<int64_t>(c))); break;
    case DType::Float16: store(p, half_bits(std::get<double>(c))); break;
    case DType::BFloat16: store(p, bfloat16_bits(std::get<double>(c))); break;
    case DType::Float32: store(p, static_cast<float>(std::get<double>(c))); break;
    case DType::Float64: store(p, std::get<double>(c)); break;
  }
}

int64_t checked_numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (__builtin_mul_overflow(n, d, &n) || n > (int64_t{1} << 56))
      fail("memory", "a tensor of {} dims this large cannot exist (more than 2^56 elements)", shape.size());
  return n;
}

void check_alloc(int64_t n, DType t) {
  const double bytes = static_cast<double>(n) * itemsize(t);
  const double total = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  if (bytes > total)
    fail("memory", "{} elements of {} need {:.1f} GB, more than this machine's {:.1f} GB", n, name(t), bytes / 1e9,
         total / 1e9);
}

}  // namespace tr
