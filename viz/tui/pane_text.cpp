#include "viz/tui/pane_text.h"

#include "viz/tui/text.h"

namespace tr::tui {

PaneText pane_text(std::string title, std::string_view text, Syntax syntax) {
  PaneText p{.title = std::move(title)};
  HighlightState state;
  for (const std::string& line : split_lines(text)) {
    p.lines.push_back(printable(line));
    p.spans.push_back(highlight(p.lines.back(), syntax, state));
  }
  return p;
}

}  // namespace tr::tui
