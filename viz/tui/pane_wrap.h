#pragma once
// A pane's text folded to its width (the wrap key): each line becomes as many rows as it needs, its
// syntax spans and the marked range following it, and each row remembers the line it came from.
#include "viz/tui/pane_text.h"

namespace tr::tui {

PaneText wrapped(const PaneText& p, int cols);
// The widest line's columns: how far a pane can scroll sideways.
int widest(const PaneText& p);

}  // namespace tr::tui
