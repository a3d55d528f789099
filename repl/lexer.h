#pragma once
// Tokens of the .tg language: Python's spelling of names, numbers, strings and operators. A newline
// ends a statement unless a bracket is open; a line that starts with ':' is one meta-command token.
// Indentation is Python's: a line indented deeper than the one before starts a block (Indent), a line
// back at an outer level ends blocks (one Dedent each); blank and comment-only lines do not count.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "repl/span.h"

namespace tr::repl {

enum class TokenKind : uint8_t { Name, Int, Float, String, Keyword, Op, Newline, Indent, Dedent, Meta, End };

struct Token {
  TokenKind kind;
  std::string text;  // as spelled; a string's decoded contents; a meta line from its ':' on
  Span span;

  bool is_op(std::string_view op) const { return kind == TokenKind::Op && text == op; }
  bool is_keyword(std::string_view kw) const { return kind == TokenKind::Keyword && text == kw; }
};

// Throws SourceError (kind "syntax") at a bad character, a malformed number or an unterminated string.
// The result always ends with an End token.
std::vector<Token> lex(std::string_view source);

// True when source lexes cleanly but a line REPL should read another line: a bracket is open, or a
// compound statement (def, for, while, if, a decorator) has begun and no blank line has ended it yet.
bool needs_more_input(std::string_view source);

// "token 'foo'", "end of line", "end of input": how an error names a token.
std::string describe(const Token& t);

}  // namespace tr::repl
