#include "core/tensor/random.h"

#include <cmath>
#include <numbers>

namespace tr {
namespace {

uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

uint64_t random_bits(uint64_t seed, uint64_t counter) {
  return mix(seed * 0x9E3779B97F4A7C15ull + mix(counter + 0xD1B54A32D192ED03ull));
}

double random_uniform(uint64_t seed, uint64_t counter) {
  return static_cast<double>(random_bits(seed, counter) >> 40) / 16777216.0;
}

double random_normal(uint64_t seed, uint64_t counter) {
  const double u1 = random_uniform(seed, 2 * counter);
  const double u2 = random_uniform(seed, 2 * counter + 1);
  return std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

Generator& generator() {
  static Generator g;
  return g;
}

void manual_seed(uint64_t seed) { generator() = Generator{.seed = seed, .counter = 0}; }

uint64_t advance_generator(uint64_t n, uint64_t per_element) {
  Generator& g = generator();
  const uint64_t first = (g.counter + per_element - 1) / per_element;
  g.counter = (first + n) * per_element;
  return first;
}

}  // namespace tr
