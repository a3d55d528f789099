#pragma once
// Structural hashes: a node's hash mixes its own fields with its sources' hashes, so identical graphs
// hash alike wherever they were built, and a cache keyed by the hash never prints anything to find a node.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <variant>
#include <vector>

namespace tr {

inline size_t hash_mix(size_t seed, size_t v) {
  // boost's hash_combine, widened with the 64-bit golden ratio
  return seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

template <typename T>
size_t hash_mix(size_t seed, const std::vector<T>& vs) {
  seed = hash_mix(seed, vs.size());
  for (const T& v : vs) seed = hash_mix(seed, std::hash<T>{}(v));
  return seed;
}

template <typename... Ts>
size_t hash_of(const std::variant<Ts...>& v) {
  return hash_mix(v.index(), std::visit([](const auto& x) { return std::hash<std::decay_t<decltype(x)>>{}(x); }, v));
}

// Equality for interning: doubles compare by their bits, so -0.0 and 0.0 stay apart and a NaN equals itself.
template <typename... Ts>
bool same_bits(const std::variant<Ts...>& a, const std::variant<Ts...>& b) {
  if (a.index() != b.index()) return false;
  return std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        const T& y = std::get<T>(b);
        if constexpr (std::is_same_v<T, double>) return std::bit_cast<uint64_t>(x) == std::bit_cast<uint64_t>(y);
        else return x == y;
      },
      a);
}

}  // namespace tr
