#pragma once
// A pane on screen: its frame (thin; thick when focused; double when :step explains it), its title
// on the frame, its tabs, then its lines from a scroll position, in syntax colours.
#include "viz/tui/colors.h"
#include "viz/tui/pane_text.h"
#include "viz/tui/window.h"

namespace tr::tui {

// Where a pane's text stands in its frame: the first line shown under its fixed lines (`top` counts
// from the first line after them), the columns scrolled off to the left, and a match of `/` to show in
// reverse video (bytes [begin, end) of line `found`).
struct PaneScroll {
  int top = 0, left = 0;
  int found = -1;
  size_t found_begin = 0, found_end = 0;
};

// `footer` rows at the bottom are left blank for the caller (the REPL's input line).
void draw_pane(const Window& w, const PaneText& p, const PaneScroll& at, Frame frame, int footer = 0);
// The rows a pane of this size has for the lines that scroll (below its fixed lines).
int body_rows(const Rect& r, const PaneText& p, int footer = 0);
// Inside the frame: the first row and column, and the width.
constexpr int kInnerY = 1, kInnerX = 1;
inline int inner_width(const Rect& r) { return r.w - 2; }

}  // namespace tr::tui
