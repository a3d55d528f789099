#pragma once
// What :help and help("...") show: the overview, the topics (commands, functions, methods, nn, dtypes,
// opts, keys, debug, json, notes), or every entry a name has, all from the help table (repl/help_table.h).
#include <string>
#include <string_view>
#include <vector>

namespace tr::repl {

// topic: "" (the overview), a topic name, a command (":src" or "src"), a function, a method, a dtype, an
// opt or a term of the notes. Throws tr::Error("value") for a topic it does not know, suggesting the nearest.
std::string help_text(std::string_view topic);

// Every word :help answers to, for completion and suggestions.
std::vector<std::string> help_topics();

}  // namespace tr::repl
