#pragma once
// Structural hashes: a node's hash mixes its own fields with its sources' hashes, so identical graphs
// hash alike wherever they were built, and a cache keyed by the hash never prints anything to find a node.
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

}  // namespace tr
