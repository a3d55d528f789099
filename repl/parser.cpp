#include "repl/parser.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <optional>
#include <set>
#include <utility>

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

// The comparison operator at t (and u, the token after it): `is not` and `not in` take both.
std::optional<std::pair<CompareOp, int>> compare_op(const Token& t, const Token& u) {
  if (t.is_keyword("in")) return std::make_pair(CompareOp::In, 1);
  if (t.is_keyword("is")) return u.is_keyword("not") ? std::make_pair(CompareOp::IsNot, 2) : std::make_pair(CompareOp::Is, 1);
  if (t.is_keyword("not") && u.is_keyword("in")) return std::make_pair(CompareOp::NotIn, 2);
  if (t.kind != TokenKind::Op) return std::nullopt;
  for (const auto& [text, op] : {std::pair{"<", CompareOp::Lt}, {"<=", CompareOp::Le}, {">", CompareOp::Gt},
                                 {">=", CompareOp::Ge}, {"==", CompareOp::Eq}, {"!=", CompareOp::Ne}})
    if (t.text == text) return std::make_pair(op, 1);
  return std::nullopt;
}

bool starts_expression(const Token& t) {
  switch (t.kind) {
    case TokenKind::Name:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::String: return true;
    case TokenKind::Keyword:
      return t.text == "True" || t.text == "False" || t.text == "None" || t.text == "not" || t.text == "print" ||
             t.text == "lambda";
    case TokenKind::Op:
      return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" || t.text == "~" ||
             t.text == "...";
    case TokenKind::Newline: case TokenKind::Indent: case TokenKind::Dedent:
    case TokenKind::Meta: case TokenKind::End: break;
  }
  return false;
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
                     BinaryOp::Pow, BinaryOp::MatMul, BinaryOp::BitAnd, BinaryOp::BitOr, BinaryOp::BitXor,
                     BinaryOp::LShift, BinaryOp::RShift})
    if (spelling(b) == op) return b;
  return std::nullopt;
}

// What one value can be stored into: a name, an attribute or a subscript.
bool is_single_target(const Expr& e) {
  return std::holds_alternative<Name>(e.node) || std::holds_alternative<Attribute>(e.node) ||
         std::holds_alternative<Subscript>(e.node);
}

// A single target, or a tuple or list of targets.
bool is_target(const Expr& e) {
  if (is_single_target(e)) return true;
  const std::vector<ExprRef>* items = nullptr;
  if (const TupleExpr* t = std::get_if<TupleExpr>(&e.node)) items = &t->items;
  if (const ListExpr* l = std::get_if<ListExpr>(&e.node)) items = &l->items;
  return items && !items->empty() && std::all_of(items->begin(), items->end(), [](const ExprRef& i) { return is_target(*i); });
}

// The names a target binds (an attribute or a subscript target binds none).
void target_names(const Expr& e, std::vector<std::string>& out) {
  if (const Name* n = std::get_if<Name>(&e.node)) out.push_back(n->id);
  if (std::holds_alternative<TupleExpr>(e.node) || std::holds_alternative<ListExpr>(e.node))
    for (const Expr* c : children(e)) target_names(*c, out);
}

// The names a block declares global or nonlocal, nested blocks included but not nested functions.
void declared_names(const std::vector<Stmt>& body, Declaration kind, std::vector<std::string>& out) {
  for (const Stmt& s : body) {
    if (const Declare* d = std::get_if<Declare>(&s.node); d && d->kind == kind)
      out.insert(out.end(), d->names.begin(), d->names.end());
    if (const For* f = std::get_if<For>(&s.node)) declared_names(*f->body, kind, out);
    if (const While* w = std::get_if<While>(&s.node)) declared_names(*w->body, kind, out);
    if (const With* w = std::get_if<With>(&s.node)) declared_names(*w->body, kind, out);
    if (const If* i = std::get_if<If>(&s.node)) {
      for (const IfBranch& b : i->branches) declared_names(*b.body, kind, out);
      if (i->else_body) declared_names(*i->else_body, kind, out);
    }
  }
}

void sort_unique(std::vector<std::string>& names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
}

// The names a block binds, nested blocks included but not nested functions' bodies.
void bound_names(const std::vector<Stmt>& body, std::vector<std::string>& out) {
  for (const Stmt& s : body) {
    if (const Assign* a = std::get_if<Assign>(&s.node))
      for (const ExprRef& t : a->targets) target_names(*t, out);
    if (const AugAssign* a = std::get_if<AugAssign>(&s.node)) target_names(*a->target, out);
    if (const For* f = std::get_if<For>(&s.node)) {
      target_names(*f->target, out);
      bound_names(*f->body, out);
    }
    if (const With* w = std::get_if<With>(&s.node)) {
      if (w->target) target_names(*w->target, out);
      bound_names(*w->body, out);
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
  explicit Parser(std::string_view source, int first_line = 1) : toks_(lex(source, first_line)) {}

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
    if (t.is_op("?"))
      fail_at(t.span, "syntax", "'?' asks for help at the end or the start of a statement: x.sum? or ?x.sum");
    fail_at(t.span, "syntax", "unexpected {}", describe(t));
  }

  void expect_close(const Token& open, std::string_view close) {
    if (accept_op(close)) return;
    if (peek().is_op("?")) unexpected(peek());
    fail_at(peek().span, "syntax", "expected '{}' to close '{}' at {}:{}", close, open.text, open.span.line, open.span.col);
  }

  // One line's statements: a compound statement, or simple statements separated by ';'.
  void line(std::vector<Stmt>& out) {
    const Token& first = peek();
    if (first.is_op("@") || first.is_keyword("def") || first.is_keyword("if") || first.is_keyword("while") ||
        first.is_keyword("for") || first.is_keyword("with")) {
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
    if (header.text == "with") {
      ExprRef context = expr();
      ExprRef target;
      if (peek().kind == TokenKind::Name && peek().text == "as") {
        next();
        target = for_target();
      }
      return Stmt{With{std::move(context), std::move(target), block(header)}, header.span};
    }
    const Within in_loop(loops_, loops_ + 1);
    if (header.text == "while") {
      ExprRef test = expr();
      return Stmt{While{std::move(test), block(header)}, header.span};
    }
    ExprRef target = for_target();
    if (!peek().is_keyword("in")) fail_at(peek().span, "syntax", "expected 'in' after the for loop's target");
    next();
    ExprRef iterable = tuple_or_expr();
    return Stmt{For{std::move(target), std::move(iterable), block(header)}, header.span};
  }

  Stmt def() {
    const Span start = peek().span;
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
    d->start = start;
    parameters(*d, ")");
    expect_close(open, ")");
    {
      const Within in_function(functions_, functions_ + 1);
      const Within no_loop(loops_, 0);
      d->body = block(header);
    }
    declared_names(*d->body, Declaration::Global, d->globals);
    declared_names(*d->body, Declaration::Nonlocal, d->nonlocals);
    sort_unique(d->globals);
    sort_unique(d->nonlocals);
    for (const DefParam& p : d->params) {
      for (const std::vector<std::string>* declared : {&d->globals, &d->nonlocals})
        if (std::binary_search(declared->begin(), declared->end(), p.name))
          fail_at(p.span, "syntax", "name '{}' is parameter and {}", p.name, declared == &d->globals ? "global" : "nonlocal");
      d->locals.push_back(p.name);
    }
    bound_names(*d->body, d->locals);
    std::erase_if(d->locals, [&](const std::string& n) {
      return std::binary_search(d->globals.begin(), d->globals.end(), n) ||
             std::binary_search(d->nonlocals.begin(), d->nonlocals.end(), n);
    });
    sort_unique(d->locals);
    return Stmt{std::shared_ptr<const Def>(std::move(d)), name.span};
  }

  // A def's or a lambda's parameters up to `close`: a, b=2, *args, c, d=4, **kwargs (a bare * ends the
  // positional ones).
  void parameters(Def& d, std::string_view close) {
    bool keyword_only = false;
    while (!peek().is_op(close)) {
      DefParamKind kind = keyword_only ? DefParamKind::KeywordOnly : DefParamKind::Positional;
      const Token& star = peek();
      if (accept_op("**")) {
        kind = DefParamKind::VarKeywords;
      } else if (accept_op("*")) {
        if (keyword_only) fail_at(star.span, "syntax", "* argument may appear only once");
        keyword_only = true;
        if (peek().is_op(",")) {
          next();
          if (peek().is_op(close)) fail_at(star.span, "syntax", "named arguments must follow bare *");
          continue;
        }
        if (peek().is_op(close)) fail_at(star.span, "syntax", "named arguments must follow bare *");
        kind = DefParamKind::VarArgs;
      }
      const Token& p = next();
      if (p.kind != TokenKind::Name) fail_at(p.span, "syntax", "expected a parameter name, got {}", describe(p));
      for (const DefParam& q : d.params)
        if (q.name == p.text) fail_at(p.span, "syntax", "duplicate argument '{}' in function definition", p.text);
      if (!d.params.empty() && d.params.back().kind == DefParamKind::VarKeywords)
        fail_at(p.span, "syntax", "arguments cannot follow var-keyword argument");
      ExprRef default_value;
      if (peek().is_op("=")) {
        if (kind == DefParamKind::VarArgs || kind == DefParamKind::VarKeywords)
          fail_at(peek().span, "syntax", "var-positional and var-keyword arguments cannot have default values");
        next();
        default_value = expr();
      }
      const bool after_default = std::any_of(d.params.begin(), d.params.end(), [](const DefParam& q) {
        return q.kind == DefParamKind::Positional && q.default_value;
      });
      if (kind == DefParamKind::Positional && !default_value && after_default)
        fail_at(p.span, "syntax", "parameter without a default follows parameter with a default");
      d.params.push_back(DefParam{p.text, p.span, std::move(default_value), kind});
      if (!accept_op(",")) break;
    }
  }

  // A for loop's (or a comprehension's, or a with's) target: names, attributes or subscripts, with
  // commas making a tuple, but no comparison, so that the `in` after it is left alone.
  ExprRef for_target() {
    ExprRef first = postfix();
    if (!peek().is_op(",")) return checked_target(std::move(first));
    const Span comma = peek().span;
    std::vector<ExprRef> items{std::move(first)};
    while (accept_op(",") && !peek().is_keyword("in") && !peek().is_op(":")) items.push_back(postfix());
    return checked_target(node(TupleExpr{std::move(items)}, comma));
  }

  static ExprRef checked_target(ExprRef e) {
    if (!is_target(*e)) fail_at(e->span, "syntax", "cannot assign to this expression (a name, an attribute or a subscript can be)");
    return e;
  }

  Stmt simple() {
    const Token& first = peek();
    if (first.kind == TokenKind::Meta) return Stmt{meta(next()), first.span};
    if (first.is_op("?")) {
      next();
      ExprRef target = expr();
      return help_statement(std::move(target), first, first);
    }
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
    if (first.is_keyword("global") || first.is_keyword("nonlocal")) return declaration();
    if (first.kind == TokenKind::Keyword && peek(1).is_op("="))
      fail_at(first.span, "syntax", "cannot assign to keyword '{}'", first.text);
    ExprRef e = tuple_or_expr();
    if (peek().is_op("?")) return help_statement(std::move(e), next(), first);
    if (const std::optional<BinaryOp> op = augmented_op(peek())) {
      if (!is_single_target(*e))
        fail_at(e->span, "syntax", "this expression cannot be assigned to ('x {}= v' needs a name, an attribute or a subscript)",
                spelling(*op));
      const Span op_span = next().span;
      return Stmt{AugAssign{std::move(e), *op, op_span, tuple_or_expr()}, first.span};
    }
    if (!peek().is_op("=")) return Stmt{ExprStmt{std::move(e)}, first.span};
    Assign a;
    while (accept_op("=")) {
      if (!is_target(*e))
        fail_at(e->span, "syntax", "cannot assign to this expression (a name, an attribute or a subscript can be)");
      a.targets.push_back(std::move(e));
      e = tuple_or_expr();
    }
    a.value = std::move(e);
    return Stmt{std::move(a), first.span};
  }

  // x.sum? or ?x.sum: mark is the `?`, first the statement's first token. IPython's ?? (the source) has
  // no meaning here.
  Stmt help_statement(ExprRef target, const Token& mark, const Token& first) {
    if (peek().is_op("?")) fail_at(peek().span, "syntax", "'?" "?' (IPython's source view) is not supported; one '?' shows the entry");
    return Stmt{ExprStmt{node(Help{std::move(target)}, mark.span)}, first.span};
  }

  Stmt declaration() {
    const Token& kw = next();
    const Declaration kind = kw.text == "global" ? Declaration::Global : Declaration::Nonlocal;
    if (kind == Declaration::Nonlocal && functions_ == 0)
      fail_at(kw.span, "syntax", "nonlocal declaration not allowed at module level");
    Declare d{kind, {}};
    do {
      const Token& n = next();
      if (n.kind != TokenKind::Name) fail_at(n.span, "syntax", "expected a name after '{}', got {}", kw.text, describe(n));
      d.names.push_back(n.text);
    } while (accept_op(","));
    return Stmt{std::move(d), kw.span};
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

  // Python's `test`: a lambda, or an or-expression with an optional `if ... else ...` after it.
  ExprRef expr() {
    if (peek().is_keyword("lambda")) {
      const Nested nested(*this);
      return lambda();
    }
    ExprRef body = or_expr();
    if (!peek().is_keyword("if")) return body;
    const Nested nested(*this);
    const Span span = next().span;
    ExprRef test = or_expr();
    if (!peek().is_keyword("else"))
      fail_at(peek().span, "syntax", "expected 'else' in the conditional expression ('a if c else b')");
    next();
    ExprRef orelse = expr();
    return node(IfExpr{std::move(test), std::move(body), std::move(orelse)}, span);
  }

  ExprRef lambda() {
    const Token& kw = next();
    auto d = std::make_shared<Def>();
    d->name = "<lambda>";
    d->start = kw.span;
    parameters(*d, ":");
    if (!accept_op(":")) fail_at(peek().span, "syntax", "expected ':' after the lambda's parameters");
    ExprRef value = expr();
    const Span at_span = value->span;
    d->body = std::make_shared<const std::vector<Stmt>>(std::vector<Stmt>{Stmt{Return{std::move(value)}, at_span}});
    for (const DefParam& p : d->params) d->locals.push_back(p.name);
    sort_unique(d->locals);
    return node(Lambda{std::move(d)}, kw.span);
  }

  // *x where a call's arguments, a list's or a tuple's items may spread a sequence.
  ExprRef star_or_expr() {
    if (!peek().is_op("*")) return expr();
    const Span star = next().span;
    return node(Starred{expr()}, star);
  }

  // After a comprehension's element: one or more `for target in iterable` clauses, each with its `if`s.
  ExprRef comprehension(ExprRef element, CompKind kind, Span span) {
    if (std::holds_alternative<Starred>(element->node))
      fail_at(element->span, "syntax", "iterable unpacking cannot be used in comprehension");
    Comprehension c{kind, std::move(element), {}};
    while (peek().is_keyword("for")) {
      next();
      ExprRef target = for_target();
      if (!peek().is_keyword("in")) fail_at(peek().span, "syntax", "expected 'in' after the comprehension's target");
      next();
      CompFor clause{std::move(target), or_expr(), {}};
      while (peek().is_keyword("if")) {
        next();
        clause.conditions.push_back(or_expr());
      }
      c.clauses.push_back(std::move(clause));
    }
    return node(std::move(c), span);
  }

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
    while (const auto op = compare_op(peek(), peek(1))) {
      const Span span = next().span;
      if (op->second == 2) next();
      links.push_back(CompareLink{op->first, span, bitwise(0)});
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
      } else if (peek().is_op("**")) {
        const Span star = next().span;
        c.keywords.push_back(KeywordArg{"", star, expr()});
      } else {
        if (!c.keywords.empty()) fail_at(peek().span, "syntax", "positional argument follows keyword argument");
        ExprRef arg = star_or_expr();
        // f(x for x in xs): a lone comprehension argument needs no brackets of its own
        if (peek().is_keyword("for")) {
          const Span at_span = arg->span;
          arg = comprehension(std::move(arg), CompKind::Tuple, at_span);
          if (!c.args.empty() || !c.keywords.empty() || !peek().is_op(")"))
            fail_at(arg->span, "syntax", "a generator expression must be the only argument unless it is in brackets");
        }
        c.args.push_back(std::move(arg));
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
        if (t.is_op("{")) return dict();
        if (t.is_op("...")) return node(EllipsisLiteral{}, next().span);
        break;
      case TokenKind::Newline: case TokenKind::Indent: case TokenKind::Dedent:
      case TokenKind::Meta: case TokenKind::End: break;
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
    ExprRef first = star_or_expr();
    if (peek().is_keyword("for")) {
      ExprRef c = comprehension(std::move(first), CompKind::Tuple, open.span);
      expect_close(open, ")");
      return c;
    }
    if (!peek().is_op(",")) {
      if (std::holds_alternative<Starred>(first->node)) fail_at(first->span, "syntax", "cannot use starred expression here");
      expect_close(open, ")");
      return first;
    }
    std::vector<ExprRef> items{std::move(first)};
    while (accept_op(",") && !peek().is_op(")")) items.push_back(star_or_expr());
    expect_close(open, ")");
    return node(TupleExpr{std::move(items)}, open.span);
  }

  ExprRef list() {
    const Token& open = next();
    std::vector<ExprRef> items;
    while (!peek().is_op("]")) {
      items.push_back(star_or_expr());
      if (items.size() == 1 && peek().is_keyword("for")) {
        ExprRef c = comprehension(std::move(items[0]), CompKind::List, open.span);
        expect_close(open, "]");
        return c;
      }
      if (!accept_op(",")) break;
    }
    expect_close(open, "]");
    return node(ListExpr{std::move(items)}, open.span);
  }

  ExprRef dict() {
    const Token& open = next();
    DictExpr d;
    while (!peek().is_op("}")) {
      ExprRef key = expr();
      if (!peek().is_op(":")) fail_at(peek().span, "syntax", "expected ':' after a dict key (sets are not supported)");
      next();
      d.entries.push_back(DictEntry{std::move(key), expr()});
      if (!accept_op(",")) break;
    }
    expect_close(open, "}");
    return node(std::move(d), open.span);
  }

  std::vector<Token> toks_;
  size_t i_ = 0;
  int nesting_ = 0;
  int functions_ = 0;  // function bodies the parser is inside: 'return' needs one
  int loops_ = 0;      // loop bodies inside the innermost function: 'break' and 'continue' need one
};

}  // namespace

std::vector<Stmt> parse_program(std::string_view source, int first_line) {
  return Parser(source, first_line).program();
}

ExprRef parse_expression(std::string_view source) { return Parser(source).lone_expression(); }

bool needs_more_input(std::string_view source) {
  InputEnd end;
  try {
    end = input_end(source);
  } catch (const SourceError&) {
    return false;  // a lexical error is shown at once
  }
  if (!end.bracket_open && !end.block_open) return false;
  try {
    parse_program(source);
    return true;  // a block that a blank line has not ended yet
  } catch (const SourceError& e) {
    return std::pair(e.span().line, e.span().col) >= std::pair(end.end.line, end.end.col);
  }
}

}  // namespace tr::repl
