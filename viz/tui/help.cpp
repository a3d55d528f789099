#include "viz/tui/help.h"

namespace tr::tui {

std::string_view keys_help() {
  return "Tab, Shift-Tab      focus the next or previous pane (Tab completes while a line is typed)\n"
         "Esc                 leave the input line; Enter goes back to it, ':' too, typed\n"
         "Up, Down            select a kernel (Kernels) or scroll the focused pane\n"
         "PgUp, PgDn          scroll a page (also the REPL's output while typing)\n"
         "Home, End           first and last kernel, or the top and bottom of the pane\n"
         "Left, Right, 1-9    switch the Source tab to another backend\n"
         "z                   zoom the focused pane, or show all panes again\n"
         ":step EXPR          walk EXPR from graph to timed kernels, a stage per key:\n"
         "                    Space or Enter next, Backspace back, Esc stop\n"
         "F1, :help           these keys        Ctrl-L  redraw\n"
         ":quit, Ctrl-D       quit (Ctrl-D on an empty input line)\n"
         "\n"
         "The input line is GNU readline: history (Up, Ctrl-R), completion (Tab), editing.\n"
         "Press any key to close this.\n";
}

}  // namespace tr::tui
