#pragma once
// Recursive descent over the tokens, with Python's precedence. Errors are SourceError of kind "syntax"
// pointing at the offending token.
#include <string_view>
#include <vector>

#include "repl/syntax.h"

namespace tr::repl {

// Every statement of a script or of one interactive input; first_line: the line of its file that source
// starts at, where its spans count from.
std::vector<Stmt> parse_program(std::string_view source, int first_line = 1);
// True when a line REPL should read another line before running source, as Python's REPL decides: a
// bracket is open or a compound statement has not ended, and the text has no error before its end. A
// line that cannot go on with an open bracket (a wrong closing bracket, a statement where an argument
// should come) ends the input at once, so that its error shows and the lines after it run on their own.
bool needs_more_input(std::string_view source);
// One expression and nothing else (a meta command's argument, for instance).
ExprRef parse_expression(std::string_view source);

}  // namespace tr::repl
