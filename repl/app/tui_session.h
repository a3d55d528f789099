#pragma once
// The curses TUI over the session's Host, in a build with the TUI (TINYREPL_TUI).
#include <optional>
#include <ostream>

#include "repl/app/host.h"

namespace tr::repl {

// Runs the TUI until :quit or Ctrl-D and returns the exit status. While it runs, what the host writes
// to out and err goes to the REPL pane instead of the terminal. Nothing, after saying why on err, when
// curses cannot drive the terminal: the plain REPL serves then.
std::optional<int> run_tui_session(Host& host, std::ostream& out, std::ostream& err);

}  // namespace tr::repl
