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

// Runs until the end of the input or :quit; returns Status::Quit or Status::Ok, or Status::Interrupted
// when Ctrl-C stopped a statement of input that is not a terminal's.
Status run_repl(Host& host, LineEditor& editor);

}  // namespace tr::repl
