#pragma once
// Where each line of a text starts, found in one pass, so that turning the spans of every statement of
// a script into offsets costs the script's length once rather than once per statement.
#include <cstddef>
#include <string_view>
#include <vector>

#include "repl/span.h"

namespace tr::repl {

class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  // The offset of span's first byte in the text; the text's size for a span past its end.
  size_t offset(Span span) const;

 private:
  std::vector<size_t> starts_;  // starts_[i]: the offset of line i + 1
  size_t size_;
};

}  // namespace tr::repl
