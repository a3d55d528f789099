#pragma once
// "did you mean" for a mistyped name: the nearest candidate by edit distance, when it is near enough
// to be a typo (Python's own rule for NameError and AttributeError suggestions).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tr::repl {

std::optional<std::string> nearest_name(std::string_view name, const std::vector<std::string>& candidates);

// "; did you mean 'x'?" or "" when nothing is near.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace tr::repl
