#pragma once
// The counter-based generator behind rand() and randn(). Element i of a tensor made with seed s
// depends only on (s, i), so a script gives the same numbers on every run, device and backend:
//   bits(s, i)    = mix(s * 0x9E3779B97F4A7C15 + mix(i + 0xD1B54A32D192ED03))
//   mix(z)        = splitmix64's finaliser (xor-shift 30, 27, 31 with its two multipliers)
//   uniform(s, i) = (bits(s, i) >> 40) / 2^24, in [0, 1) with 24 exact bits
//   normal(s, i)  = sqrt(-2 ln(1 - uniform(s, 2i))) * cos(2 pi uniform(s, 2i + 1))   (Box-Muller)
#include <cstdint>

namespace tr {

uint64_t random_bits(uint64_t seed, uint64_t counter);
double random_uniform(uint64_t seed, uint64_t counter);
double random_normal(uint64_t seed, uint64_t counter);

}  // namespace tr
