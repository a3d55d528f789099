#pragma once
// Whole text files in and out, with errors of kind "io" that name the file and the reason.
#include <string>

namespace tr::repl {

// "-" reads standard input to its end.
std::string read_text_file(const std::string& path);
void write_text_file(const std::string& path, const std::string& text);

}  // namespace tr::repl
