#pragma once
// Error text as compilers print it: a located headline, the source line, and a caret line.
#include <string>
#include <string_view>

namespace tr::repl {

// "FILE:LINE:COL: error: MESSAGE" (just "error: MESSAGE" when file is empty), then the source line and
// "^~~~" under the len bytes starting at col. The source line and caret are left out when line is 0;
// of a line longer than 160 columns, only the 160 around col are shown.
std::string format_error(std::string_view file, std::string_view source_line, int line, int col, int len,
                         std::string_view message);

// Line `line` (1-based) of source, without its newline; empty past the end.
std::string_view source_line(std::string_view source, int line);

}  // namespace tr::repl
