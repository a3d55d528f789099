#pragma once
// Recursive descent over the tokens, with Python's precedence. Errors are SourceError of kind "syntax"
// pointing at the offending token.
#include <string_view>
#include <vector>

#include "repl/syntax.h"

namespace tr::repl {

// Every statement of a script or of one interactive input.
std::vector<Stmt> parse_program(std::string_view source);
// One expression and nothing else (a meta command's argument, for instance).
ExprRef parse_expression(std::string_view source);

}  // namespace tr::repl
