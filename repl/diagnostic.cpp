#include "repl/diagnostic.h"

#include <fmt/format.h>

#include <algorithm>

namespace tr::repl {

std::string format_error(std::string_view file, std::string_view source_line, int line, int col, int len,
                         std::string_view message) {
  std::string out = file.empty() ? fmt::format("error: {}\n", message)
                                 : fmt::format("{}:{}:{}: error: {}\n", file, line, col, message);
  if (line <= 0) return out;
  out += fmt::format("{}\n", source_line);
  // Tabs are copied so that the caret lines up however the terminal expands them.
  const size_t start = static_cast<size_t>(std::max(col, 1) - 1);
  for (size_t i = 0; i < start; i++) out += i < source_line.size() && source_line[i] == '\t' ? '\t' : ' ';
  out += '^';
  out.append(static_cast<size_t>(std::max(len, 1) - 1), '~');
  out += '\n';
  return out;
}

std::string_view source_line(std::string_view source, int line) {
  for (int i = 1; i < line; i++) {
    const size_t nl = source.find('\n');
    if (nl == std::string_view::npos) return {};
    source.remove_prefix(nl + 1);
  }
  source = source.substr(0, std::min(source.find('\n'), source.size()));
  if (!source.empty() && source.back() == '\r') source.remove_suffix(1);
  return source;
}

}  // namespace tr::repl
