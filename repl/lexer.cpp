#include "repl/lexer.h"

#include <array>
#include <cctype>

#include "repl/source_error.h"

namespace tr::repl {
namespace {

constexpr std::array<std::string_view, 25> kKeywords{
    "and", "or",    "not",   "True",  "False",    "None",   "assert", "print",  "def",
    "return", "for", "in",   "while", "if",       "elif",   "else",   "break",  "continue",
    "pass", "is",   "lambda", "global", "nonlocal", "with"};
// Longest first, so that "**" wins over "*", "//=" over "//" and "..." over ".".
// "?" is IPython's help (x.sum?, ?x.sum), which the parser takes at the start or end of a statement.
constexpr std::array<std::string_view, 46> kOperators{
    "**=", "//=", "<<=", ">>=", "...", "+=", "-=", "*=", "/=", "%=", "@=", "&=", "|=", "^=", "**",
    "//",  "<<",  ">>",  "<=",  ">=",  "==", "!=", "+",  "-",  "*",  "/",  "%",  "@",  "&",
    "|",   "^",   "~",   "<",   ">",   "=",  "(",  ")",  "[",  "]",  "{",  "}",  ",",  ":",  ".",  ";",  "?"};

// Brackets, each closing one where its opening one is.
constexpr std::string_view kOpening = "([{";
constexpr std::string_view kClosing = ")]}";

// Python's tab stops: a tab moves the indentation to the next multiple of 8.
constexpr int kTabWidth = 8;

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// What a prefix of Python's that .tg lacks makes of the string after it (bytes, f-strings, and their
// raw forms); "" for a name that is no such prefix.
std::string_view unsupported_literal(std::string_view name) {
  auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  std::string prefix;
  for (char c : name) prefix += lower(c);
  for (std::string_view bytes : {"b", "br", "rb"})
    if (prefix == bytes) return "bytes literals";
  for (std::string_view f : {"f", "fr", "rf"})
    if (prefix == f) return "f-strings";
  return "";
}

class Lexer {
 public:
  Lexer(std::string_view src, int first_line) : src_(src), line_(first_line) {}

  std::vector<Token> run() {
    while (pos_ < src_.size()) {
      if (line_start_ && open_.empty()) indentation();
      if (pos_ < src_.size()) step();
    }
    for (size_t i = 1; i < indents_.size(); i++) tokens_.push_back(Token{TokenKind::Dedent, "", here(0)});
    push(TokenKind::End, "", 0);
    return std::move(tokens_);
  }
  bool bracket_open() const { return !open_.empty(); }

 private:
  char peek(size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
  Span here(int len) const { return Span{line_, col_, len}; }
  Span ahead(size_t n, int len) const { return Span{line_, col_ + static_cast<int>(n), len}; }

  void advance(size_t n) {
    pos_ += n;
    col_ += static_cast<int>(n);
  }

  void push(TokenKind kind, std::string text, int len) {
    tokens_.push_back(Token{kind, std::move(text), here(len)});
    advance(static_cast<size_t>(len));
  }

  bool at_statement_start() const {
    if (!open_.empty() || tokens_.empty()) return open_.empty();
    const Token& last = tokens_.back();
    return last.kind == TokenKind::Newline || last.kind == TokenKind::Indent || last.kind == TokenKind::Dedent ||
           last.is_op(";") || last.is_op(":");
  }

  // At the start of a line outside brackets: Indent or Dedents against the enclosing levels.
  void indentation() {
    line_start_ = false;
    int width = 0;
    size_t n = 0;
    for (;; n++) {
      const char c = peek(n);
      if (c == ' ') {
        width++;
      } else if (c == '\t') {
        width = (width / kTabWidth + 1) * kTabWidth;
      } else if (c != '\f') {
        break;
      }
    }
    const char first = peek(n);
    if (first == '\n' || first == '\r' || first == '#' || first == '\0') return;  // a blank line
    advance(n);
    if (width > indents_.back()) {
      indents_.push_back(width);
      tokens_.push_back(Token{TokenKind::Indent, "", here(1)});
      return;
    }
    while (width < indents_.back()) {
      indents_.pop_back();
      tokens_.push_back(Token{TokenKind::Dedent, "", here(1)});
    }
    if (width != indents_.back()) fail_at(here(1), "syntax", "unindent does not match any outer indentation level");
  }

  void step() {
    const char c = peek();
    if (c == '\n') return newline();
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f') return advance(1);
    if (c == '#') return skip_comment();
    if (c == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {
      advance(1);  // an explicit continuation: the newline that follows is skipped
      while (peek() != '\n') advance(1);
      return next_line();
    }
    if (c == ':' && at_statement_start()) return meta_line();
    if (is_name_start(c)) return name();
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number();
    if (c == '"' || c == '\'') return string(0, false);
    op();
  }

  void next_line() {
    pos_++;
    line_++;
    col_ = 1;
  }

  void newline() {
    if (open_.empty()) {
      line_start_ = true;
      if (!tokens_.empty() && tokens_.back().kind != TokenKind::Newline) {
        tokens_.push_back(Token{TokenKind::Newline, "\n", here(1)});
      }
    }
    next_line();
  }

  void skip_comment() {
    while (pos_ < src_.size() && peek() != '\n') advance(1);
  }

  // A meta command runs to the end of its line or to a ';', which starts the next statement as it does
  // after any other (`print(1); :kernels; :time`); a '#' after a blank starts a comment, so that a path
  // such as "out#1.dot" survives.
  void meta_line() {
    size_t end = pos_;
    while (end < src_.size() && src_[end] != '\n' && src_[end] != ';') end++;
    std::string_view text = src_.substr(pos_, end - pos_);
    for (size_t i = 1; i < text.size(); i++) {
      if (text[i] == '#' && (text[i - 1] == ' ' || text[i - 1] == '\t')) {
        end = pos_ + i;
        while (end < src_.size() && src_[end] != '\n') end++;
        text = text.substr(0, i);
        break;
      }
    }
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    tokens_.push_back(Token{TokenKind::Meta, std::string(text), here(static_cast<int>(text.size()))});
    advance(end - pos_);
  }

  void name() {
    size_t n = 1;
    while (is_name_char(peek(n))) n++;
    const std::string text(src_.substr(pos_, n));
    if (peek(n) == '"' || peek(n) == '\'') {
      if (text == "r" || text == "R" || text == "u" || text == "U") return string(n, text == "r" || text == "R");
      if (const std::string_view what = unsupported_literal(text); !what.empty())
        fail_at(here(static_cast<int>(n)), "syntax", "{} are not supported", what);
    }
    bool keyword = false;
    for (std::string_view kw : kKeywords) keyword = keyword || kw == text;
    push(keyword ? TokenKind::Keyword : TokenKind::Name, text, static_cast<int>(n));
  }

  void number() {
    size_t n = 0;
    bool is_float = false;
    while (is_digit(peek(n))) n++;
    if (peek(n) == '.' && peek(n + 1) != '.') {  // "1." is a float, "1..." is not
      is_float = true;
      n++;
      while (is_digit(peek(n))) n++;
    }
    if (peek(n) == 'e' || peek(n) == 'E') {
      size_t m = n + 1;
      if (peek(m) == '+' || peek(m) == '-') m++;
      if (!is_digit(peek(m))) bad_number(m);
      while (is_digit(peek(m))) m++;
      n = m;
      is_float = true;
    }
    if (is_name_char(peek(n))) bad_number(n);
    push(is_float ? TokenKind::Float : TokenKind::Int, std::string(src_.substr(pos_, n)), static_cast<int>(n));
  }

  [[noreturn]] void bad_number(size_t n) const {
    while (is_name_char(peek(n)) || peek(n) == '.') n++;
    fail_at(here(static_cast<int>(n)), "syntax", "invalid number literal '{}'", src_.substr(pos_, n));
  }

  // A string literal whose quote follows `prefix` bytes of prefix letters (r or u); a raw one keeps
  // its backslashes, though a backslash still stops the quote after it from ending the string.
  void string(size_t prefix, bool raw) {
    const char quote = peek(prefix);
    std::string value;
    size_t n = prefix + 1;
    for (;;) {
      const char c = peek(n);
      if (c == '\0' || c == '\n') fail_at(here(static_cast<int>(n)), "syntax", "unterminated string literal");
      if (c == quote) break;
      if (c == '\\' && peek(n + 1) != '\0' && peek(n + 1) != '\n') {
        if (raw) {
          value += src_.substr(pos_ + n, 2);
          n += 2;
        } else {
          n += escape(n, value);
        }
        continue;
      }
      value += c;
      n++;
    }
    push(TokenKind::String, std::move(value), static_cast<int>(n + 1));
  }

  // Python's escape at the backslash `n` bytes ahead, appended to value (as UTF-8 past ASCII); returns
  // how many bytes it spans. An escape Python does not know keeps its backslash, as Python keeps it.
  size_t escape(size_t n, std::string& value) const {
    const char e = peek(n + 1);
    switch (e) {
      case 'n': value += '\n'; return 2;
      case 't': value += '\t'; return 2;
      case 'r': value += '\r'; return 2;
      case 'a': value += '\a'; return 2;
      case 'b': value += '\b'; return 2;
      case 'f': value += '\f'; return 2;
      case 'v': value += '\v'; return 2;
      case '\\':
      case '\'':
      case '"': value += e; return 2;
      case 'x': return 2 + hex_escape(n, 2, value);
      case 'u': return 2 + hex_escape(n, 4, value);
      case 'U': return 2 + hex_escape(n, 8, value);
      case 'N':
        fail_at(ahead(n, 2), "syntax",
                "\\N{{...}} escapes (Unicode character names) are not supported; write the character or \\u");
      default: break;
    }
    if (e >= '0' && e <= '7') {
      size_t digits = 1;
      while (digits < 3 && peek(n + 1 + digits) >= '0' && peek(n + 1 + digits) <= '7') digits++;
      append_utf8(std::stoul(std::string(src_.substr(pos_ + n + 1, digits)), nullptr, 8), value);
      return 1 + digits;
    }
    value += '\\';
    value += e;
    return 2;
  }

  // \x, \u or \U at the backslash `n` bytes ahead: exactly `digits` hex digits; returns digits.
  size_t hex_escape(size_t n, size_t digits, std::string& value) const {
    const char kind = peek(n + 1);
    for (size_t i = 0; i < digits; i++) {
      if (!std::isxdigit(static_cast<unsigned char>(peek(n + 2 + i)))) {
        fail_at(ahead(n, static_cast<int>(2 + i)), "syntax", "truncated \\{}{} escape",
                kind, std::string(digits, 'X'));
      }
    }
    const unsigned long code = std::stoul(std::string(src_.substr(pos_ + n + 2, digits)), nullptr, 16);
    if (code > 0x10FFFF) {
      fail_at(ahead(n, static_cast<int>(2 + digits)), "syntax",
              "illegal Unicode character \\{}{}", kind, src_.substr(pos_ + n + 2, digits));
    }
    append_utf8(code, value);
    return digits;
  }

  static void append_utf8(unsigned long code, std::string& out) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  // A closing bracket must match the innermost open one: a wrong one is an error at once, so that a line
  // REPL never waits for more lines after it.
  void close(char c) {
    if (open_.empty()) fail_at(here(1), "syntax", "unmatched '{}'", c);
    const Token& opening = open_.back();
    if (kClosing[kOpening.find(opening.text[0])] != c) {
      const std::string where = opening.span.line == line_ ? "" : fmt::format(" on line {}", opening.span.line);
      fail_at(here(1), "syntax", "closing parenthesis '{}' does not match opening parenthesis '{}'{}", c, opening.text,
              where);
    }
    open_.pop_back();
  }

  void op() {
    for (std::string_view o : kOperators) {
      if (src_.substr(pos_, o.size()) != o) continue;
      if (o == "(" || o == "[" || o == "{") open_.push_back(Token{TokenKind::Op, std::string(o), here(1)});
      if (o == ")" || o == "]" || o == "}") close(o[0]);
      push(TokenKind::Op, std::string(o), static_cast<int>(o.size()));
      return;
    }
    const unsigned char c = static_cast<unsigned char>(peek());
    if (std::isprint(c)) fail_at(here(1), "syntax", "invalid character '{}'", static_cast<char>(c));
    fail_at(here(1), "syntax", "invalid character (byte 0x{:02x})", c);
  }

  std::string_view src_;
  size_t pos_ = 0;
  int line_;
  int col_ = 1;
  std::vector<Token> open_;  // the brackets open here, outermost first
  bool line_start_ = true;
  std::vector<int> indents_{0};  // the widths of the enclosing blocks' indentation, outermost first
  std::vector<Token> tokens_;
};

bool opens_compound(const Token& t) {
  for (std::string_view kw : {"def", "for", "while", "if", "with"})
    if (t.is_keyword(kw)) return true;
  return t.is_op("@");
}

// The last line of source is blank (a line REPL's way to end a block).
bool ends_with_blank_line(std::string_view source) {
  const size_t nl = source.find_last_of('\n');
  return nl != std::string_view::npos && source.find_first_not_of(" \t\r\f", nl + 1) == std::string_view::npos;
}

}  // namespace

std::vector<Token> lex(std::string_view source, int first_line) { return Lexer(source, first_line).run(); }

InputEnd input_end(std::string_view source) {
  Lexer lexer(source, 1);
  const std::vector<Token> toks = lexer.run();
  return InputEnd{.bracket_open = lexer.bracket_open(),
                  .block_open = opens_compound(toks.front()) && !ends_with_blank_line(source),
                  .end = toks.back().span};
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case TokenKind::Newline: return "end of line";
    case TokenKind::Indent: return "indent";
    case TokenKind::Dedent: return "dedent";
    case TokenKind::End: return "end of input";
    case TokenKind::String: return fmt::format("string '{}'", t.text);
    case TokenKind::Meta: return fmt::format("meta command '{}'", t.text);
    case TokenKind::Name:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::Keyword:
    case TokenKind::Op: break;
  }
  return fmt::format("token '{}'", t.text);
}

}  // namespace tr::repl
