#pragma once
// Two texts compared line by line, printed as `diff -u` prints them: what :diff shows of two versions
// of a kernel.
#include <string>
#include <string_view>

namespace tr {

struct LineDiff {
  std::string text;  // "--- a" and "+++ b", then hunks of three lines of context; "" when equal
  int removed = 0, added = 0;
};

LineDiff unified_diff(std::string_view a, std::string_view b, std::string_view a_label, std::string_view b_label);

}  // namespace tr
