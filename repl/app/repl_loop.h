#pragma once
// The plain REPL: reads an input (a line, or more lines while a bracket is open or a line ends with
// '\'), runs it, shows each expression's value, and carries on after any error.
#include <string_view>

#include "repl/app/host.h"
#include "repl/app/line_editor.h"

namespace tr::repl {

inline constexpr std::string_view kPrompt = ">>> ";
inline constexpr std::string_view kContinuation = "... ";

// True when buffer needs another line before it can run.
bool input_continues(std::string_view buffer);

// How errors name standard input, in a piped session as in `tinyrepl run -`.
inline constexpr std::string_view kStdinName = "<stdin>";

// Runs until the end of the input or :quit. On a terminal it returns Status::Quit or Status::Ok; with
// input that is not a terminal's, every statement runs as on a terminal, and it returns what `run -`
// would exit with: Status::Interrupted when Ctrl-C stopped a statement, else the first failure's status
// (Status::Error, Status::AssertFailed), else Status::Ok.
Status run_repl(Host& host, LineEditor& editor);

}  // namespace tr::repl
