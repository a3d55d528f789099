#pragma once
// A pane on screen: its frame (thin; thick when focused; double when :step explains it), its title
// on the frame, its tabs, then its lines from a scroll position, in syntax colours.
#include "viz/tui/colors.h"
#include "viz/tui/pane_text.h"
#include "viz/tui/window.h"

namespace tr::tui {

// `header` rows under the tabs are left blank for the caller (the REPL's input line).
void draw_pane(const Window& w, const PaneText& p, int top, Frame frame, int header = 0);
// The rows a pane of this size has for its lines.
int body_rows(const Rect& r, const PaneText& p, int header = 0);
// Inside the frame: the first row and column, and the width.
constexpr int kInnerY = 1, kInnerX = 1;
inline int inner_width(const Rect& r) { return r.w - 2; }

}  // namespace tr::tui
