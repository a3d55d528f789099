#pragma once
// What one pane shows: a title, printable lines with their syntax spans, optional tabs above the
// lines, and a marked range (the selected kernel, the stage :step explains).
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "viz/tui/highlight.h"

namespace tr::tui {

struct PaneText {
  std::string title{};
  std::vector<std::string> lines{};
  std::vector<std::vector<Span>> spans{};  // one entry per line
  std::vector<std::string> tabs{};         // Source: one per backend
  int tab = -1;
  int mark_begin = -1, mark_end = -1;    // [begin, end) lines drawn in reverse video
  std::vector<int> linked{};             // lines linked to the line selected in another pane (links.h), ascending
  int anchor = 0;                        // the line to scroll to when this text replaces another
  int fixed = 0;                         // the first lines (a table's header) stay put while the rest scrolls
  std::vector<int> origin{};             // wrapped (pane_wrap.h): the line of the unwrapped text each row is from

  bool marked(int line) const { return line >= mark_begin && line < mark_end; }
  bool is_linked(int line) const { return std::binary_search(linked.begin(), linked.end(), line); }
};

// Splits a printer's output into lines made printable and highlighted with `syntax`.
PaneText pane_text(std::string title, std::string_view text, Syntax syntax = Syntax::None);

}  // namespace tr::tui
