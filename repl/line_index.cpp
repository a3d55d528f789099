#include "repl/line_index.h"

#include <algorithm>

namespace tr::repl {

LineIndex::LineIndex(std::string_view text) : starts_{0}, size_(text.size()) {
  for (size_t i = 0; i < text.size(); i++)
    if (text[i] == '\n') starts_.push_back(i + 1);
}

size_t LineIndex::offset(Span span) const {
  if (span.line < 1) return 0;
  const size_t line = static_cast<size_t>(span.line) - 1;
  if (line >= starts_.size()) return size_;
  return std::min(size_, starts_[line] + static_cast<size_t>(std::max(span.col, 1) - 1));
}

}  // namespace tr::repl
