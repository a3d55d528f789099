#include "repl/diagnostic.h"

#include <fmt/format.h>

#include <algorithm>

namespace tr::repl {

constexpr size_t kShownColumns = 160;

std::string format_error(std::string_view file, std::string_view source_line, int line, int col, int len,
                         std::string_view message) {
  std::string out = file.empty() ? fmt::format("error: {}\n", message)
                                 : fmt::format("{}:{}:{}: error: {}\n", file, line, col, message);
  if (line <= 0) return out;
  size_t start = static_cast<size_t>(std::max(col, 1) - 1);
  size_t marked = static_cast<size_t>(std::max(len, 1));
  // A line longer than a terminal is shown as the part around the caret, "..." standing for the rest.
  std::string shown(source_line);
  if (shown.size() > kShownColumns) {
    const size_t from = start > kShownColumns / 2 ? start - kShownColumns / 2 : 0;
    const bool cut_left = from > 0, cut_right = from + kShownColumns < shown.size();
    shown = fmt::format("{}{}{}", cut_left ? "..." : "", source_line.substr(from, kShownColumns), cut_right ? "..." : "");
    start = start - from + (cut_left ? 3 : 0);
    marked = std::min(marked, shown.size() - std::min(start, shown.size()));
  }
  out += fmt::format("{}\n", shown);
  // Tabs are copied so that the caret lines up however the terminal expands them.
  for (size_t i = 0; i < start; i++) out += i < shown.size() && shown[i] == '\t' ? '\t' : ' ';
  out += '^';
  out.append(std::max<size_t>(marked, 1) - 1, '~');
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
