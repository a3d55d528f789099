// The half of the shims that run GPU languages' kernels on the CPU (devices/shims/metal/metal_stdlib,
// devices/shims/hip/hip/hip_runtime.h): IEEE binary16 storage, converted with F16C (x86) or AArch64's __fp16
// (a double in one rounding); + - * / in float, rounded back after each operation, as a GPU's half
// arithmetic rounds. F16C is reached through the compiler's builtins, not <immintrin.h>: parsing that
// header took 0.5 s of each kernel's 0.6 s compile (g++ 12 on the 2-core VM), the most of the test suite's
// time on the shim devices.
#pragma once
#include <cstdint>
#include <type_traits>

#if !defined(__F16C__) && !defined(__aarch64__)
#error "the shims convert half with F16C (x86) or AArch64's __fp16"
#endif

namespace tinyrepl_shim {

struct half {
  uint16_t bits = 0;
  half() = default;
#if defined(__F16C__)
  using Floats = float __attribute__((vector_size(16)));
  using Halves = short __attribute__((vector_size(16)));
  // rounding mode 0: to nearest, ties to even
  half(float f) : bits(static_cast<uint16_t>(__builtin_ia32_vcvtps2ph(Floats{f, 0, 0, 0}, 0)[0])) {}
  operator float() const { return __builtin_ia32_vcvtph2ps(Halves{static_cast<short>(bits), 0, 0, 0, 0, 0, 0, 0})[0]; }
#else
  half(float f) {
    __fp16 h = static_cast<__fp16>(f);
    __builtin_memcpy(&bits, &h, 2);
  }
  operator float() const {
    __fp16 h;
    __builtin_memcpy(&h, &bits, 2);
    return h;
  }
#endif
  // a double rounds once, as a GPU's conversion does: to float rounded toward zero with the lost bits
  // kept as the lowest bit (round to odd), which the rounding to half then sees
  half(double d) {
    float f = static_cast<float>(d);
    if (static_cast<double>(f) != d && __builtin_isfinite(f)) {
      uint32_t b = 0;
      __builtin_memcpy(&b, &f, 4);
      if (__builtin_fabs(static_cast<double>(f)) > __builtin_fabs(d)) b -= 1;
      b |= 1;
      __builtin_memcpy(&f, &b, 4);
    }
    *this = half(f);
  }
  // other arithmetic types convert through float, as the reference evaluator's casts do
  template <class T, class = std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, float> && !std::is_same_v<T, double>>>
  half(T v) : half(static_cast<float>(v)) {}
};
inline half operator+(half a, half b) { return half(float(a) + float(b)); }
inline half operator-(half a, half b) { return half(float(a) - float(b)); }
inline half operator*(half a, half b) { return half(float(a) * float(b)); }
inline half operator/(half a, half b) { return half(float(a) / float(b)); }
inline half operator-(half a) { return half(-float(a)); }

}  // namespace tinyrepl_shim
