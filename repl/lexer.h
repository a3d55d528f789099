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
// The result always ends with an End token. Spans count lines from first_line, the line of its file
// that source starts at.
std::vector<Token> lex(std::string_view source, int first_line = 1);

// Where a line REPL stands at the end of source, by its tokens alone.
struct InputEnd {
  bool bracket_open = false;  // the next line goes on with the bracket
  // a compound statement (def, for, while, if, with, a decorator) that no blank line has ended
  bool block_open = false;
  Span end;  // where the text ends: an error here says only that more is missing
};
// Throws SourceError as lex does.
InputEnd input_end(std::string_view source);

// "token 'foo'", "end of line", "end of input": how an error names a token.
std::string describe(const Token& t);

}  // namespace tr::repl
