#pragma once
// Curses attributes for the TUI: foreground colours only, over the terminal's own background, in
// tones that read on dark and on light themes; plain attributes where the terminal has no colour.
#include "viz/tui/highlight.h"

namespace tr::tui {

enum class Frame : int { Plain, Focused, Stage };

// After initscr: sets up the colour pairs (once per terminal).
void init_colors();
int style_attr(Style s);
int frame_attr(Frame f);

}  // namespace tr::tui
