#pragma once
// An outside checker's verdict on a text (ptxas on PTX, clang on HIP), kept in the cache under a key
// that holds the checker's version and the text. ./scripts/test's sanitizer run renders the same
// sources as its plain run (the two share a cache folder) and reads the plain run's verdicts instead of
// running the tool again: what the tool checks is checked once, and its time is the tool's, not ours.
#include <functional>
#include <optional>
#include <string>

#include "devices/disk_cache.h"

namespace tr::testing {

inline std::string checker_verdict(const std::string& key, const std::function<std::string()>& check) {
  if (const std::optional<std::string> kept = cached_text("verdict|" + key)) return *kept;
  const std::string verdict = check();
  cache_text("verdict|" + key, verdict);
  return verdict;
}

}  // namespace tr::testing
