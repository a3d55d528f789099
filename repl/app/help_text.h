#pragma once
// What :help shows: the commands, the language's functions and methods with their parameters, the
// dtypes, the keys of the line editor, the DEBUG levels and the --json events.
#include <string>
#include <string_view>
#include <vector>

namespace tr::repl {

// topic: "" (the overview), a topic name, a command (":src" or "src"), a function or a method.
// Throws tr::Error("value") for a topic it does not know, suggesting the nearest.
std::string help_text(std::string_view topic);

// Every word :help answers to, for completion.
std::vector<std::string> help_topics();

}  // namespace tr::repl
