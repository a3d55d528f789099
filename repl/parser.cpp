#include "repl/parser.h"

#include <charconv>
#include <cstdlib>
#include <optional>
#include <set>

#include "repl/lexer.h"
#include "repl/source_error.h"

namespace tr::repl {
namespace {

std::optional<BinaryOp> additive_op(const Token& t) {
  if (t.is_op("+")) return BinaryOp::Add;
  if (t.is_op("-")) return BinaryOp::Sub;
  return std::nullopt;
}

std::optional<BinaryOp> multiplicative_op(const Token& t) {
  if (t.kind != TokenKind::Op) return std::nullopt;
  if (t.text == "*") return BinaryOp::Mul;
  if (t.text == "/") return BinaryOp::Div;
  if (t.text == "//") return BinaryOp::FloorDiv;
  if (t.text == "%") return BinaryOp::Mod;
  if (t.text == "@") return BinaryOp::MatMul;
  return std::nullopt;
}

std::optional<CompareOp> compare_op(const Token& t) {
  if (t.kind != TokenKind::Op) return std::nullopt;
  if (t.text == "<") return CompareOp::Lt;
  if (t.text == "<=") return CompareOp::Le;
  if (t.text == ">") return CompareOp::Gt;
  if (t.text == ">=") return CompareOp::Ge;
  if (t.text == "==") return CompareOp::Eq;
  if (t.text == "!=") return CompareOp::Ne;
  return std::nullopt;
}

bool starts_expression(const Token& t) {
  switch (t.kind) {
    case TokenKind::Name:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::String: return true;
    case TokenKind::Keyword: return t.text != "and" && t.text != "or" && t.text != "assert";
    case TokenKind::Op: return t.text == "(" || t.text == "[" || t.text == "-" || t.text == "+" || t.text == "...";
    default: return false;
  }
}

// As deep as Python's parser lets brackets nest; the parser, the evaluator and the engine each
// recurse once per level, so the bound keeps every stack (ASan's larger frames too) far from its end.
constexpr int kMaxNesting = 200;

[[noreturn]] void too_deep(Span at) {
  fail_at(at, "syntax", "expression nested too deeply (the limit is {} levels)", kMaxNesting);
}

template <typename Node>
ExprRef node(Node n, Span span) {
  ExprRef e = make_expr(std::move(n), span);
  if (e->depth > kMaxNesting) too_deep(span);
  return e;
}

bool ends_statement(const Token& t) { return t.kind == TokenKind::Newline || t.kind == TokenKind::End || t.is_op(";"); }

class Parser {
 public:
  explicit Parser(std::string_view source) : toks_(lex(source)) {}

  std::vector<Stmt> program() {
    std::vector<Stmt> out;
    for (;;) {
      while (peek().kind == TokenKind::Newline || peek().is_op(";")) i_++;
      if (peek().kind == TokenKind::End) return out;
      out.push_back(statement());
      if (!ends_statement(peek())) unexpected(peek());
    }
  }

  ExprRef lone_expression() {
    while (peek().kind == TokenKind::Newline) i_++;
    ExprRef e = tuple_or_expr();
    while (peek().kind == TokenKind::Newline) i_++;
    if (peek().kind != TokenKind::End) unexpected(peek());
    return e;
  }

 private:
  const Token& peek(size_t ahead = 0) const { return toks_[std::min(i_ + ahead, toks_.size() - 1)]; }
  const Token& next() {
    const Token& t = peek();
    if (t.kind != TokenKind::End) i_++;
    return t;
  }
  bool accept_op(std::string_view op) {
    if (!peek().is_op(op)) return false;
    i_++;
    return true;
  }

  // The parser's own recursion runs ahead of the nodes it builds (`((((` nests before any node
  // exists), so it is bounded where it recurses: once per bracket, unary operator or exponent.
  class Nested {
   public:
    explicit Nested(Parser& p) : p_(p) {
      if (p_.nesting_ > kMaxNesting) too_deep(p_.peek().span);
      p_.nesting_++;
    }
    ~Nested() { p_.nesting_--; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;

   private:
    Parser& p_;
  };

  [[noreturn]] static void unexpected(const Token& t) { fail_at(t.span, "syntax", "unexpected {}", describe(t)); }

  void expect_close(const Token& open, std::string_view close) {
    if (accept_op(close)) return;
    fail_at(peek().span, "syntax", "expected '{}' to close '{}' at {}:{}", close, open.text, open.span.line,
            open.span.col);
  }

  Stmt statement() {
    const Token& first = peek();
    if (first.kind == TokenKind::Meta) return Stmt{meta(next()), first.span};
    if (first.is_keyword("assert")) {
      next();
      ExprRef test = expr();
      ExprRef message = accept_op(",") ? expr() : nullptr;
      return Stmt{Assert{std::move(test), std::move(message)}, first.span};
    }
    if (peek(1).is_op("=")) {
      if (first.kind == TokenKind::Keyword) fail_at(first.span, "syntax", "cannot assign to keyword '{}'", first.text);
      if (first.kind == TokenKind::Name) {
        i_ += 2;
        return Stmt{Assign{first.text, tuple_or_expr()}, first.span};
      }
    }
    ExprRef e = tuple_or_expr();
    if (peek().is_op("=")) fail_at(e->span, "syntax", "only a name can be assigned to ('name = expr')");
    return Stmt{ExprStmt{std::move(e)}, first.span};
  }

  static Meta meta(const Token& t) {
    Meta m{"", {}, t.text};
    std::string_view rest = std::string_view(t.text).substr(1);
    while (!rest.empty()) {
      const size_t start = rest.find_first_not_of(" \t");
      if (start == std::string_view::npos) break;
      rest.remove_prefix(start);
      const size_t end = std::min(rest.find_first_of(" \t"), rest.size());
      (m.name.empty() ? m.name : m.args.emplace_back()) = std::string(rest.substr(0, end));
      rest.remove_prefix(end);
    }
    if (m.name.empty()) fail_at(t.span, "syntax", "expected a command name after ':'");
    return m;
  }

  // `a, b` without brackets is a tuple, as in Python.
  ExprRef tuple_or_expr() {
    ExprRef first = expr();
    if (!peek().is_op(",")) return first;
    const Span comma = peek().span;
    std::vector<ExprRef> items{std::move(first)};
    while (accept_op(",") && starts_expression(peek())) items.push_back(expr());
    return node(TupleExpr{std::move(items)}, comma);
  }

  ExprRef expr() { return or_expr(); }

  ExprRef or_expr() {
    ExprRef lhs = and_expr();
    while (peek().is_keyword("or")) {
      const Span op = next().span;
      lhs = node(Logic{LogicOp::Or, lhs, and_expr()}, op);
    }
    return lhs;
  }

  ExprRef and_expr() {
    ExprRef lhs = not_expr();
    while (peek().is_keyword("and")) {
      const Span op = next().span;
      lhs = node(Logic{LogicOp::And, lhs, not_expr()}, op);
    }
    return lhs;
  }

  ExprRef not_expr() {
    if (!peek().is_keyword("not")) return comparison();
    const Nested nested(*this);
    const Span op = next().span;
    return node(Unary{UnaryOp::Not, not_expr()}, op);
  }

  ExprRef comparison() {
    ExprRef first = arith();
    std::vector<CompareLink> links;
    while (const std::optional<CompareOp> op = compare_op(peek())) {
      const Span span = next().span;
      links.push_back(CompareLink{*op, span, arith()});
    }
    if (links.empty()) return first;
    const Span span = links[0].span;
    return node(Comparison{std::move(first), std::move(links)}, span);
  }

  ExprRef arith() {
    ExprRef lhs = term();
    while (const std::optional<BinaryOp> op = additive_op(peek())) {
      const Span span = next().span;
      lhs = node(Binary{*op, lhs, term()}, span);
    }
    return lhs;
  }

  ExprRef term() {
    ExprRef lhs = factor();
    while (const std::optional<BinaryOp> op = multiplicative_op(peek())) {
      const Span span = next().span;
      lhs = node(Binary{*op, lhs, factor()}, span);
    }
    return lhs;
  }

  ExprRef factor() {
    const Nested nested(*this);
    if (peek().is_op("-") || peek().is_op("+")) {
      const Token& op = next();
      return node(Unary{op.text == "-" ? UnaryOp::Neg : UnaryOp::Pos, factor()}, op.span);
    }
    return power();
  }

  // The exponent is a factor, so that 2**-1 parses and ** groups to the right; -2**2 is -(2**2).
  ExprRef power() {
    ExprRef base = postfix();
    if (!peek().is_op("**")) return base;
    const Span span = next().span;
    return node(Binary{BinaryOp::Pow, base, factor()}, span);
  }

  ExprRef postfix() {
    ExprRef e = atom();
    for (;;) {
      if (peek().is_op("(")) {
        e = call(std::move(e));
      } else if (peek().is_op(".")) {
        next();
        const Token& name = next();
        if (name.kind != TokenKind::Name && name.kind != TokenKind::Keyword) {
          fail_at(name.span, "syntax", "expected an attribute name after '.', got {}", describe(name));
        }
        e = node(Attribute{std::move(e), name.text}, name.span);
      } else if (peek().is_op("[")) {
        e = subscript(std::move(e));
      } else {
        return e;
      }
    }
  }

  ExprRef call(ExprRef callee) {
    const Token& open = next();
    Call c{callee, {}, {}};
    std::set<std::string, std::less<>> seen;
    while (!peek().is_op(")")) {
      if (peek().kind == TokenKind::Name && peek(1).is_op("=")) {
        const Token& name = next();
        next();
        if (!seen.insert(name.text).second) fail_at(name.span, "syntax", "keyword argument repeated: '{}'", name.text);
        c.keywords.push_back(KeywordArg{name.text, name.span, expr()});
      } else {
        if (!c.keywords.empty()) fail_at(peek().span, "syntax", "positional argument follows keyword argument");
        c.args.push_back(expr());
      }
      if (!accept_op(",")) break;
    }
    expect_close(open, ")");
    return node(std::move(c), callee->span);
  }

  ExprRef subscript(ExprRef object) {
    const Token& open = next();
    std::vector<ExprRef> indices;
    do {
      if (peek().is_op("]") && !indices.empty()) break;
      indices.push_back(subscript_item());
    } while (accept_op(","));
    expect_close(open, "]");
    return node(Subscript{std::move(object), std::move(indices)}, open.span);
  }

  ExprRef subscript_item() {
    ExprRef start = peek().is_op(":") ? nullptr : expr();
    if (!peek().is_op(":")) return start;
    const Span colon = next().span;
    ExprRef stop = slice_part({":", ",", "]"});
    ExprRef step = accept_op(":") ? slice_part({",", "]"}) : nullptr;
    return node(SliceExpr{std::move(start), std::move(stop), std::move(step)}, colon);
  }

  // A slice bound, or null when the next token ends it.
  ExprRef slice_part(std::initializer_list<std::string_view> stops) {
    for (std::string_view s : stops) {
      if (peek().is_op(s)) return nullptr;
    }
    return expr();
  }

  ExprRef atom() {
    const Token& t = peek();
    switch (t.kind) {
      case TokenKind::Name: return node(Name{next().text}, t.span);
      case TokenKind::Int: return node(Literal{int_value(next())}, t.span);
      case TokenKind::Float: return node(Literal{float_value(next())}, t.span);
      case TokenKind::String: return node(Literal{next().text}, t.span);
      case TokenKind::Keyword: return keyword_atom();
      case TokenKind::Op:
        if (t.is_op("(")) return parenthesized();
        if (t.is_op("[")) return list();
        if (t.is_op("...")) return node(EllipsisLiteral{}, next().span);
        break;
      default: break;
    }
    unexpected(t);
  }

  ExprRef keyword_atom() {
    const Token& t = peek();
    if (t.text == "True" || t.text == "False") return node(Literal{next().text == "True"}, t.span);
    if (t.text == "None") return node(Literal{NoneLiteral{}}, next().span);
    if (t.text == "print") return node(Name{next().text}, t.span);
    unexpected(t);
  }

  static int64_t int_value(const Token& t) {
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc() || end != t.text.data() + t.text.size()) {
      fail_at(t.span, "syntax", "integer literal {} does not fit in 64 bits", t.text);
    }
    return v;
  }

  static double float_value(const Token& t) {
    double v = 0;
    const auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    // out of range parses as Python does: overflow is inf, underflow is 0
    if (ec == std::errc::result_out_of_range) return std::strtod(t.text.c_str(), nullptr);
    if (ec != std::errc() || end != t.text.data() + t.text.size()) {
      fail_at(t.span, "syntax", "invalid number literal '{}'", t.text);
    }
    return v;
  }

  ExprRef parenthesized() {
    const Token& open = next();
    if (accept_op(")")) return node(TupleExpr{}, open.span);
    ExprRef first = expr();
    if (!peek().is_op(",")) {
      expect_close(open, ")");
      return first;
    }
    std::vector<ExprRef> items{std::move(first)};
    while (accept_op(",") && !peek().is_op(")")) items.push_back(expr());
    expect_close(open, ")");
    return node(TupleExpr{std::move(items)}, open.span);
  }

  ExprRef list() {
    const Token& open = next();
    std::vector<ExprRef> items;
    while (!peek().is_op("]")) {
      items.push_back(expr());
      if (!accept_op(",")) break;
    }
    expect_close(open, "]");
    return node(ListExpr{std::move(items)}, open.span);
  }

  std::vector<Token> toks_;
  size_t i_ = 0;
  int nesting_ = 0;
};

}  // namespace

std::vector<Stmt> parse_program(std::string_view source) { return Parser(source).program(); }

ExprRef parse_expression(std::string_view source) { return Parser(source).lone_expression(); }

}  // namespace tr::repl
