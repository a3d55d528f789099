#pragma once
// Tab completion for the plain REPL and the TUI: names, methods after "x.", functions, dtypes after
// "dtypes.", nn's functions after "nn.", meta commands after ':', and their arguments (backends, devices,
// help topics, on/off), help names after '?'. The functions', methods' and commands' names are the help
// table's (repl/help_table.h), which the help test holds equal to what the REPL binds. Pure: the line
// editor asks, this answers.
#include <string>
#include <string_view>
#include <vector>

#include "repl/session.h"

namespace tr::repl {

// Characters that end the word being completed; '.' and ':' belong to it ("x.su", ":ke").
inline constexpr std::string_view kWordBreaks = " \t\n\"'`@$><=;|&{(,[)]+-*/%~!?";

struct Completion {
  size_t start = 0;                     // where the word begins in the line
  std::vector<std::string> candidates;  // whole replacements of the word, sorted
  bool files = false;                   // a file name goes here: the editor completes paths
};

// The completions of the word that ends at `cursor` in `line`.
Completion complete(std::string_view line, size_t cursor, const Session& session);

}  // namespace tr::repl
