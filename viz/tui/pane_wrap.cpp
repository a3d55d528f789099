#include "viz/tui/pane_wrap.h"

#include <algorithm>

#include "viz/tui/text.h"

namespace tr::tui {

PaneText wrapped(const PaneText& p, int cols) {
  PaneText out{.title = p.title, .tabs = p.tabs, .tab = p.tab};
  std::vector<int> first_row;  // per line of p
  for (size_t i = 0; i < p.lines.size(); i++) {
    const std::string& line = p.lines[i];
    first_row.push_back(static_cast<int>(out.lines.size()));
    size_t at = 0;
    do {
      const size_t end = at + std::max<size_t>(1, fit(line, std::max(1, cols), at));
      out.lines.push_back(line.substr(at, end - at));
      std::vector<Span> spans;
      for (const Span& s : p.spans[i]) {
        const size_t b = std::max(s.begin, at), e = std::min(s.end, end);
        if (b < e) spans.push_back({.begin = b - at, .end = e - at, .style = s.style});
      }
      out.spans.push_back(std::move(spans));
      out.origin.push_back(static_cast<int>(i));
      at = end;
    } while (at < line.size());
  }
  first_row.push_back(static_cast<int>(out.lines.size()));
  auto row = [&](int line) { return line < 0 ? line : first_row[std::min<size_t>(line, first_row.size() - 1)]; };
  for (const int l : p.linked)
    for (int r = row(l); r < row(l + 1); r++) out.linked.push_back(r);
  out.mark_begin = row(p.mark_begin);
  out.mark_end = row(p.mark_end);
  out.anchor = row(p.anchor);
  out.fixed = row(p.fixed);
  return out;
}

int widest(const PaneText& p) {
  int w = 0;
  for (const std::string& line : p.lines) w = std::max(w, display_width(line));
  return w;
}

}  // namespace tr::tui
