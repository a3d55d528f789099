#include "core/base/paragraph.h"

#include <fmt/format.h>

namespace tr {

std::string paragraph(std::string_view text, std::string_view indent, size_t width) {
  std::string out, line;
  while (!text.empty()) {
    const size_t space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += fmt::format("{}{}\n", indent, line);
      line.clear();
    }
    line += line.empty() ? std::string(word) : fmt::format(" {}", word);
  }
  if (!line.empty()) out += fmt::format("{}{}\n", indent, line);
  return out;
}

}  // namespace tr
