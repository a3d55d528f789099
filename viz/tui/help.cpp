#include "viz/tui/help.h"

namespace tr::tui {

// At most 74 columns and 20 lines: the box fits an 80x24 terminal.
std::string_view keys_help() {
  return "Tab, Shift-Tab    next or previous pane (Tab completes a word being typed)\n"
         "Esc               leave the input line; Enter goes back, ':' too, typed\n"
         "Up, Down          select a kernel; a UOps, Source or AST line, linked (▶)\n"
         "PgUp, PgDn        scroll a page (the REPL's output, while typing)\n"
         "Home, End         first or last kernel, or top or bottom of the pane\n"
         "[, ]              an older or newer statement's schedule (:history)\n"
         "s                 Kernels and Timings by time, longest first, and back\n"
         "<, >              scroll long lines sideways (also Shift-Left, Right)\n"
         "w, z              wrap long lines; zoom the focused pane (again: back)\n"
         "/, n, N           find a text in the focused pane; next, previous\n"
         "Left, Right, 1-9  switch the Source tab to another backend; a: the Asm tab\n"
         "mouse             click: focus a pane, select a kernel; wheel: scroll\n"
         ":src K [BACKEND]  show kernel K in the panes (:ast K, :uops K, :asm K too)\n"
         ":diff K [A [B]]   two versions of kernel K, in the Source pane, coloured\n"
         ":step EXPR        walk EXPR from graph to timed kernels, a stage a key:\n"
         "                  Space or Enter next, Backspace back, Esc stop\n"
         "F1, :help         these keys                  Ctrl-L  redraw\n"
         ":quit, Ctrl-D     quit (Ctrl-D on an empty input line)\n"
         "The input line is GNU readline: history (Up, Ctrl-R), Tab completion.\n"
         "Press any key to close this.\n";
}

}  // namespace tr::tui
