#pragma once
// The counter-based generator behind rand() and randn(). Element i of a tensor made with seed s
// depends only on (s, i), so a script gives the same numbers on every run, device and backend:
//   bits(s, i)    = mix(s * 0x9E3779B97F4A7C15 + mix(i + 0xD1B54A32D192ED03))
//   mix(z)        = splitmix64's finaliser (xor-shift 30, 27, 31 with its two multipliers)
//   uniform(s, i) = (bits(s, i) >> 40) / 2^24, in [0, 1) with 24 exact bits
//   normal(s, i)  = sqrt(-2 ln(1 - uniform(s, 2i))) * cos(2 pi uniform(s, 2i + 1))   (Box-Muller)
// A call without its own seed draws from the session's generator, as tinygrad's do: seed s (manual_seed,
// default 0) and a counter c of uniforms used, which each such call advances past what it drew, so two
// calls differ: rand of n elements reads uniform(s, c + i) and sets c to c + n; randn reads
// normal(s, k + i) with k = ceil(c / 2) (its uniforms start at 2k >= c) and sets c to 2(k + n).
#include <cstdint>

namespace tr {

uint64_t random_bits(uint64_t seed, uint64_t counter);
double random_uniform(uint64_t seed, uint64_t counter);
double random_normal(uint64_t seed, uint64_t counter);

struct Generator {
  uint64_t seed = 0;
  uint64_t counter = 0;
};
Generator& generator();
void manual_seed(uint64_t seed);  // sets the seed and starts the counter again at 0
// The first index of a draw of n elements that take `per_element` uniforms each (rand 1, randn 2), in
// units of elements; the counter moves past the draw.
uint64_t advance_generator(uint64_t n, uint64_t per_element);

}  // namespace tr
