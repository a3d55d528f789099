#include "repl/suggest.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace tr::repl {
namespace {

// Costs as Python weighs them: a change of case alone is half an edit.
constexpr size_t kMoveCost = 2;
constexpr size_t kCaseCost = 1;

size_t distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); j++) row[j] = j * kMoveCost;
  for (size_t i = 1; i <= a.size(); i++) {
    size_t diagonal = row[0];
    row[0] = i * kMoveCost;
    for (size_t j = 1; j <= b.size(); j++) {
      const char x = a[i - 1], y = b[j - 1];
      const size_t sub = x == y ? 0
                         : std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y))
                             ? kCaseCost
                             : kMoveCost;
      const size_t best = std::min({row[j] + kMoveCost, row[j - 1] + kMoveCost, diagonal + sub});
      diagonal = row[j];
      row[j] = best;
    }
  }
  return row[b.size()];
}

}  // namespace

std::optional<std::string> nearest_name(std::string_view name, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  size_t best_cost = 0;
  for (const std::string& c : candidates) {
    if (c == name) continue;
    const size_t limit = (name.size() + c.size() + 3) * kMoveCost / 6;
    const size_t cost = distance(name, c);
    if (cost <= limit && (!best || cost < best_cost)) {
      best = c;
      best_cost = cost;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  const std::optional<std::string> near = nearest_name(name, candidates);
  return near ? fmt::format("; did you mean '{}'?", *near) : "";
}

}  // namespace tr::repl
