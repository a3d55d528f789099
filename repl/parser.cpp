#include "repl/parser.h"

#include <algorithm>
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

// Python's bitwise levels, loosest first: |, ^, &, then the shifts.
std::optional<BinaryOp> bitwise_op(const Token& t, int level) {
  if (t.kind != TokenKind::Op) return std::nullopt;
  switch (level) {
    case 0: return t.text == "|" ? std::optional(BinaryOp::BitOr) : std::nullopt;
    case 1: return t.text == "^" ? std::optional(BinaryOp::BitXor) : std::nullopt;
    case 2: return t.text == "&" ? std::optional(BinaryOp::BitAnd) : std::nullopt;
    default: break;
  }
  if (t.text == "<<") return BinaryOp::LShift;
  if (t.text == ">>") return BinaryOp::RShift;
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
    case TokenKind::Keyword:
      return t.text == "True" || t.text == "False" || t.text == "None" || t.text == "not" || t.text == "print";
    case TokenKind::Op:
      return t.text == "(" || t.text == "[" || t.text == "-" || t.text == "+" || t.text == "~" || t.text == "...";
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

bool ends_line(const Token& t) {
  return t.kind == TokenKind::Newline || t.kind == TokenKind::End || t.kind == TokenKind::Dedent;
}

std::optional<BinaryOp> augmented_op(const Token& t) {
  if (t.kind != TokenKind::Op || t.text.size() < 2 || t.text.back() != '=') return std::nullopt;
  const std::string_view op = std::string_view(t.text).substr(0, t.text.size() - 1);
  for (BinaryOp b : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div, BinaryOp::FloorDiv, BinaryOp::Mod,
                     BinaryOp::Pow, BinaryOp::BitAnd, BinaryOp::BitOr, BinaryOp::BitXor, BinaryOp::LShift,
                     BinaryOp::RShift})
    if (spelling(b) == op) return b;
  return std::nullopt;
}

// A name, or a tuple or list of targets.
bool is_target(const Expr& e) {
  if (std::holds_alternative<Name>(e.node)) return true;
  const std::vector<ExprRef>* items = nullptr;
  if (const TupleExpr* t = std::get_if<TupleExpr>(&e.node)) items = &t->items;
  if (const ListExpr* l = std::get_if<ListExpr>(&e.node)) items = &l->items;
  return items && !items->empty() && std::all_of(items->begin(), items->end(), [](const ExprRef& i) { return is_target(*i); });
}

void target_names(const Expr& e, std::vector<std::string>& out) {
  if (const Name* n = std::get_if<Name>(&e.node)) out.push_back(n->id);
  for (const Expr* c : children(e)) target_names(*c, out);
}

// The names a block binds, nested blocks included but not nested functions' bodies.
void bound_names(const std::vector<Stmt>& body, std::vector<std::string>& out) {
  for (const Stmt& s : body) {
    if (const Assign* a = std::get_if<Assign>(&s.node))
      for (const ExprRef& t : a->targets) target_names(*t, out);
    if (const AugAssign* a = std::get_if<AugAssign>(&s.node)) out.push_back(a->name);
    if (const For* f = std::get_if<For>(&s.node)) {
      target_names(*f->target, out);
      bound_names(*f->body, out);
    }
    if (const While* w = std::get_if<While>(&s.node)) bound_names(*w->body, out);
    if (const If* i = std::get_if<If>(&s.node)) {
      for (const IfBranch& b : i->branches) bound_names(*b.body, out);
      if (i->else_body) bound_names(*i->else_body, out);
    }
    if (const auto* d = std::get_if<std::shared_ptr<const Def>>(&s.node)) out.push_back((*d)->name);
  }
}

class Parser {
 public:
  explicit Parser(std::string_view source) : toks_(lex(source)) {}

  std::vector<Stmt> program() {
    std::vector<Stmt> out;
    for (;;) {
      while (peek().kind == TokenKind::Newline || peek().is_op(";")) i_++;
      if (peek().kind == TokenKind::End) return out;
      if (peek().kind == TokenKind::Indent) fail_at(peek().span, "syntax", "unexpected indent");
      line(out);
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
  // exists), so it is bounded where it recurses: once per bracket, unary operator, exponent or block.
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

  // Sets a counter for the extent of a function body or a loop body, and puts it back after.
  class Within {
   public:
    Within(int& counter, int value) : counter_(counter), saved_(counter) { counter_ = value; }
    ~Within() { counter_ = saved_; }
    Within(const Within&) = delete;
    Within& operator=(const Within&) = delete;

   private:
    int& counter_;
    int saved_;
  };

  [[noreturn]] static void unexpected(const Token& t) {
    if (t.kind == TokenKind::Indent) fail_at(t.span, "syntax", "unexpected indent");
    fail_at(t.span, "syntax", "unexpected {}", describe(t));
  }

  void expect_close(const Token& open, std::string_view close) {
    if (accept_op(close)) return;
    fail_at(peek().span, "syntax", "expected '{}' to close '{}' at {}:{}", close, open.text, open.span.line, open.span.col);
  }

  // One line's statements: a compound statement, or simple statements separated by ';'.
  void line(std::vector<Stmt>& out) {
    const Token& first = peek();
    if (first.is_op("@") || first.is_keyword("def") || first.is_keyword("if") || first.is_keyword("while") ||
        first.is_keyword("for")) {
      out.push_back(compound());
      return;
    }
    simple_statements(out);
  }

  void simple_statements(std::vector<Stmt>& out) {
    do {
      out.push_back(simple());
    } while (accept_op(";") && !ends_line(peek()));
    if (!ends_line(peek())) unexpected(peek());
  }

  // After a compound statement's header: ':' and an indented block, or simple statements on the same line.
  Block block(const Token& header) {
    const Nested nested(*this);
    if (!accept_op(":")) fail_at(peek().span, "syntax", "expected ':' after the '{}' header", header.text);
    auto body = std::make_shared<std::vector<Stmt>>();
    if (peek().kind != TokenKind::Newline) {
      if (peek().kind == TokenKind::End) no_block(header);
      simple_statements(*body);
      return body;
    }
    next();
    if (peek().kind != TokenKind::Indent) no_block(header);
    next();
    for (;;) {
      while (peek().kind == TokenKind::Newline || peek().is_op(";")) i_++;
      if (peek().kind == TokenKind::Dedent) {
        next();
        return body;
      }
      if (peek().kind == TokenKind::End) return body;
      if (peek().kind == TokenKind::Indent) unexpected(peek());
      line(*body);
    }
  }

  [[noreturn]] void no_block(const Token& header) const {
    fail_at(peek().span, "syntax", "expected an indented block after '{}' on line {}", header.text, header.span.line);
  }

  // An elif or else that follows a block written on its header's line sits after that line's end.
  bool next_clause_is(std::string_view keyword) {
    if (peek().kind == TokenKind::Newline && peek(1).is_keyword(keyword)) next();
    return peek().is_keyword(keyword);
  }

  Stmt compound() {
    const Token& first = peek();
    if (first.is_op("@") || first.is_keyword("def")) return def();
    const Token& header = next();
    if (header.text == "if") {
      If node;
      ExprRef test = expr();
      node.branches.push_back(IfBranch{std::move(test), block(header)});
      while (next_clause_is("elif")) {
        const Token& elif = next();
        ExprRef t = expr();
        node.branches.push_back(IfBranch{std::move(t), block(elif)});
      }
      if (next_clause_is("else")) node.else_body = block(next());
      return Stmt{std::move(node), header.span};
    }
    const Within in_loop(loops_, loops_ + 1);
    if (header.text == "while") {
      ExprRef test = expr();
      return Stmt{While{std::move(test), block(header)}, header.span};
    }
    ExprRef target = tuple_or_expr();
    if (!is_target(*target)) fail_at(target->span, "syntax", "a for loop's target must be a name or names ('for i in ...')");
    if (!peek().is_keyword("in")) fail_at(peek().span, "syntax", "expected 'in' after the for loop's target");
    next();
    ExprRef iterable = tuple_or_expr();
    return Stmt{For{std::move(target), std::move(iterable), block(header)}, header.span};
  }

  Stmt def() {
    std::vector<ExprRef> decorators;
    while (accept_op("@")) {
      decorators.push_back(expr());
      if (peek().kind != TokenKind::Newline) unexpected(peek());
      next();
    }
    if (!peek().is_keyword("def")) fail_at(peek().span, "syntax", "a decorator must come before a def");
    const Token& header = next();
    const Token& name = next();
    if (name.kind != TokenKind::Name) fail_at(name.span, "syntax", "expected the function's name after 'def'");
    if (!peek().is_op("(")) fail_at(peek().span, "syntax", "expected '(' after the function's name");
    const Token& open = next();
    auto d = std::make_shared<Def>();
    d->name = name.text;
    d->decorators = std::move(decorators);
    while (!peek().is_op(")")) {
      const Token& p = next();
      if (p.kind != TokenKind::Name) fail_at(p.span, "syntax", "expected a parameter name, got {}", describe(p));
      for (const DefParam& q : d->params)
        if (q.name == p.text) fail_at(p.span, "syntax", "duplicate parameter '{}' in function definition", p.text);
      ExprRef default_value = accept_op("=") ? expr() : nullptr;
      if (!default_value && !d->params.empty() && d->params.back().default_value)
        fail_at(p.span, "syntax", "parameter without a default follows parameter with a default");
      d->params.push_back(DefParam{p.text, p.span, std::move(default_value)});
      if (!accept_op(",")) break;
    }
    expect_close(open, ")");
    {
      const Within in_function(functions_, functions_ + 1);
      const Within no_loop(loops_, 0);
      d->body = block(header);
    }
    for (const DefParam& p : d->params) d->locals.push_back(p.name);
    bound_names(*d->body, d->locals);
    std::sort(d->locals.begin(), d->locals.end());
    d->locals.erase(std::unique(d->locals.begin(), d->locals.end()), d->locals.end());
    return Stmt{std::shared_ptr<const Def>(std::move(d)), name.span};
  }

  Stmt simple() {
    const Token& first = peek();
    if (first.kind == TokenKind::Meta) return Stmt{meta(next()), first.span};
    if (first.is_keyword("assert")) {
      next();
      ExprRef test = expr();
      ExprRef message = accept_op(",") ? expr() : nullptr;
      return Stmt{Assert{std::move(test), std::move(message)}, first.span};
    }
    if (first.is_keyword("pass")) return Stmt{(next(), Pass{}), first.span};
    if (first.is_keyword("break") || first.is_keyword("continue")) {
      if (loops_ == 0) fail_at(first.span, "syntax", "'{}' outside loop", first.text);
      next();
      return first.text == "break" ? Stmt{Break{}, first.span} : Stmt{Continue{}, first.span};
    }
    if (first.is_keyword("return")) {
      if (functions_ == 0) fail_at(first.span, "syntax", "'return' outside function");
      next();
      return Stmt{Return{ends_line(peek()) || peek().is_op(";") ? nullptr : tuple_or_expr()}, first.span};
    }
    if (first.kind == TokenKind::Keyword && peek(1).is_op("="))
      fail_at(first.span, "syntax", "cannot assign to keyword '{}'", first.text);
    ExprRef e = tuple_or_expr();
    if (const std::optional<BinaryOp> op = augmented_op(peek())) {
      const Name* n = std::get_if<Name>(&e->node);
      if (!n) fail_at(e->span, "syntax", "only a name can be assigned to ('name {}= expr')", spelling(*op));
      const Span op_span = next().span;
      return Stmt{AugAssign{n->id, *op, op_span, tuple_or_expr()}, first.span};
    }
    if (!peek().is_op("=")) return Stmt{ExprStmt{std::move(e)}, first.span};
    Assign a;
    while (accept_op("=")) {
      if (!is_target(*e)) fail_at(e->span, "syntax", "only a name can be assigned to ('name = expr')");
      a.targets.push_back(std::move(e));
      e = tuple_or_expr();
    }
    a.value = std::move(e);
    return Stmt{std::move(a), first.span};
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
    ExprRef first = bitwise(0);
    std::vector<CompareLink> links;
    while (const std::optional<CompareOp> op = compare_op(peek())) {
      const Span span = next().span;
      links.push_back(CompareLink{*op, span, bitwise(0)});
    }
    if (links.empty()) return first;
    const Span span = links[0].span;
    return node(Comparison{std::move(first), std::move(links)}, span);
  }

  // level 0 is |, 1 is ^, 2 is &, 3 the shifts; each binds tighter than the one before
  ExprRef bitwise(int level) {
    const auto operand = [&] { return level == 3 ? arith() : bitwise(level + 1); };
    ExprRef lhs = operand();
    while (const std::optional<BinaryOp> op = bitwise_op(peek(), level)) {
      const Span span = next().span;
      lhs = node(Binary{*op, lhs, operand()}, span);
    }
    return lhs;
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
    if (peek().is_op("-") || peek().is_op("+") || peek().is_op("~")) {
      const Token& op = next();
      const UnaryOp u = op.text == "-" ? UnaryOp::Neg : op.text == "+" ? UnaryOp::Pos : UnaryOp::Invert;
      return node(Unary{u, factor()}, op.span);
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
  int functions_ = 0;  // function bodies the parser is inside: 'return' needs one
  int loops_ = 0;      // loop bodies inside the innermost function: 'break' and 'continue' need one
};

}  // namespace

std::vector<Stmt> parse_program(std::string_view source) { return Parser(source).program(); }

ExprRef parse_expression(std::string_view source) { return Parser(source).lone_expression(); }

}  // namespace tr::repl
