#include "viz/tui/text.h"

#include <algorithm>
#include <utility>

namespace tr::tui {
namespace {

// One UTF-8 character at s[i]: its code point and length, or length 0 when the bytes are not UTF-8.
std::pair<char32_t, size_t> decode(std::string_view s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) return {b, 1};
  const size_t n = b >= 0xf0 && b < 0xf5 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return {0, 0};
  char32_t c = b & (0x7f >> n);
  for (size_t k = 1; k < n; k++) {
    const auto cont = static_cast<unsigned char>(s[i + k]);
    if ((cont & 0xc0) != 0x80) return {0, 0};
    c = (c << 6) | (cont & 0x3f);
  }
  const bool overlong = (n == 3 && c < 0x800) || (n == 4 && c < 0x10000);
  if (overlong || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return {0, 0};
  return {c, n};
}

// The ranges that terminals draw two columns wide or not at all, after Unicode's East Asian Width.
int char_width(char32_t c) {
  if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) || (c >= 0xfe00 && c <= 0xfe0f)) return 0;
  const bool wide = (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0x303e) || (c >= 0x3041 && c <= 0x33ff) ||
                    (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xa000 && c <= 0xa4cf) ||
                    (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) ||
                    (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||
                    (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd);
  return wide ? 2 : 1;
}

}  // namespace

std::string utf8(char32_t c) {
  std::string s;
  const auto byte = [&](unsigned b) { s += static_cast<char>(b); };
  if (c < 0x80) {
    byte(c);
  } else if (c < 0x800) {
    byte(0xc0 | (c >> 6));
    byte(0x80 | (c & 0x3f));
  } else if (c < 0x10000) {
    byte(0xe0 | (c >> 12));
    byte(0x80 | ((c >> 6) & 0x3f));
    byte(0x80 | (c & 0x3f));
  } else {
    byte(0xf0 | (c >> 18));
    byte(0x80 | ((c >> 12) & 0x3f));
    byte(0x80 | ((c >> 6) & 0x3f));
    byte(0x80 | (c & 0x3f));
  }
  return s;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
      lines.emplace_back(text.substr(start));
      break;
    }
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string printable(std::string_view line) {
  std::string out;
  int col = 0;
  for (size_t i = 0; i < line.size();) {
    const auto [c, n] = decode(line, i);
    if (c == '\t') {
      do out += ' ';
      while (++col % 8 != 0);
    } else if (n == 0 || c < 0x20 || (c >= 0x7f && c < 0xa0)) {
      out += '?';
      col++;
    } else {
      out += line.substr(i, n);
      col += char_width(c);
    }
    i += n == 0 ? 1 : n;
  }
  return out;
}

int display_width(std::string_view s) {
  int w = 0;
  for (size_t i = 0; i < s.size();) {
    const auto [c, n] = decode(s, i);
    w += n == 0 ? 1 : char_width(c);
    i += n == 0 ? 1 : n;
  }
  return w;
}

size_t fit(std::string_view s, int cols, size_t from) {
  size_t i = from;
  int w = 0;
  while (i < s.size()) {
    const auto [c, n] = decode(s, i);
    const int cw = n == 0 ? 1 : char_width(c);
    if (w + cw > cols) break;
    w += cw;
    i += n == 0 ? 1 : n;
  }
  return i - from;
}

std::string ellipsized(std::string_view s, int cols) {
  if (display_width(s) <= cols) return std::string(s);
  if (cols <= 0) return "";
  return std::string(s.substr(0, fit(s, cols - 1))) + "…";
}

size_t skip_columns(std::string_view s, int cols) {
  size_t i = 0;
  int w = 0;
  while (i < s.size() && w < cols) {
    const auto [c, n] = decode(s, i);
    w += n == 0 ? 1 : char_width(c);
    i += n == 0 ? 1 : n;
  }
  return i;
}

std::vector<std::string> wrap(std::string_view text, int cols, int indent) {
  cols = std::max(cols, 1);
  const size_t lead = std::min(text.find_first_not_of(' '), text.size());
  std::vector<std::string> lines;
  std::string line(text.substr(0, lead));
  size_t bare = line.size();  // the line's length before its first word
  for (size_t i = lead; i < text.size();) {
    const size_t start = text.find_first_not_of(' ', i);
    if (start == std::string_view::npos) break;
    const size_t end = std::min(text.find(' ', start), text.size());
    const std::string_view word = text.substr(start, end - start);
    i = end;
    if (line.size() > bare && display_width(line) + 1 + display_width(word) > cols) {
      lines.push_back(std::exchange(line, std::string(static_cast<size_t>(std::clamp(indent, 0, cols - 1)), ' ')));
      bare = line.size();
    }
    if (line.size() > bare) line += ' ';
    line += word.substr(0, fit(word, cols - display_width(line)));
  }
  if (line.size() > bare) lines.push_back(line);
  return lines;
}

std::string wrap_lines(std::string_view text, int cols, int indent) {
  std::string out;
  for (const std::string& line : split_lines(text)) {
    if (display_width(line) <= cols) out += line + "\n";
    else
      for (const std::string& part : wrap(line, cols, indent)) out += part + "\n";
  }
  return out;
}

}  // namespace tr::tui
