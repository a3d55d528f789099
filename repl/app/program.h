#pragma once
// The whole program behind main(): the command line, the settings, and the form that runs.
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace tr::repl {

// args without the program's name; terminal: stdin is a person's terminal. Returns the exit status.
int run_program(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err,
                bool terminal);

}  // namespace tr::repl
