#pragma once
// The tree of a .tg program. Nodes are immutable values; children are shared, never mutated. Every
// node keeps the span of the token an error about it should point at (an operator, a name, a bracket).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "repl/span.h"

namespace tr::repl {

struct Expr;
using ExprRef = std::shared_ptr<const Expr>;

enum class UnaryOp : uint8_t { Neg, Pos, Not, Invert };
enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, FloorDiv, Mod, MatMul, Pow, BitAnd, BitOr, BitXor, LShift, RShift };
enum class CompareOp : uint8_t { Lt, Le, Gt, Ge, Eq, Ne };
enum class LogicOp : uint8_t { And, Or };

struct NoneLiteral {};
struct Literal {
  std::variant<NoneLiteral, bool, int64_t, double, std::string> value;
};
struct EllipsisLiteral {};
struct Name {
  std::string id;
};
struct Unary {
  UnaryOp op;
  ExprRef operand;
};
struct Binary {
  BinaryOp op;
  ExprRef lhs, rhs;
};
struct Logic {  // short-circuit `and` / `or`
  LogicOp op;
  ExprRef lhs, rhs;
};
struct CompareLink {
  CompareOp op;
  Span span;  // the operator
  ExprRef rhs;
};
struct Comparison {  // a < b <= c: each link compares with the operand before it
  ExprRef first;
  std::vector<CompareLink> links;
};
struct KeywordArg {
  std::string name;
  Span span;  // the keyword's name
  ExprRef value;
};
struct Call {
  ExprRef callee;
  std::vector<ExprRef> args;
  std::vector<KeywordArg> keywords;
};
struct Attribute {
  ExprRef object;
  std::string name;
};
struct Subscript {
  ExprRef object;
  std::vector<ExprRef> indices;  // each an expression or a SliceExpr
};
struct SliceExpr {  // start:stop:step, a missing part is null; only inside a subscript
  ExprRef start, stop, step;
};
struct ListExpr {
  std::vector<ExprRef> items;
};
struct TupleExpr {
  std::vector<ExprRef> items;
};

struct Expr {
  std::variant<Literal, EllipsisLiteral, Name, Unary, Binary, Logic, Comparison, Call, Attribute, Subscript, SliceExpr,
               ListExpr, TupleExpr>
      node;
  Span span;
  // How many nodes the longest path down to a leaf passes below this one (0 for a leaf): whatever
  // walks the tree recurses this deep, so the parser refuses trees deeper than it can walk.
  int depth = 0;
};

// The node's direct subexpressions, null parts (a slice's missing bound) left out.
std::vector<const Expr*> children(const Expr& e);

template <typename Node>
ExprRef make_expr(Node node, Span span) {
  Expr e{std::move(node), span};
  for (const Expr* c : children(e)) e.depth = std::max(e.depth, c->depth + 1);
  return std::make_shared<const Expr>(std::move(e));
}

struct Stmt;
// The statements of an indented block (or of the simple statements after a compound header's ':').
// Shared, because a function value keeps its body after the parse that made it is gone.
using Block = std::shared_ptr<const std::vector<Stmt>>;

// target = value, where a target is a name or a tuple or list of targets (a, b = b, a); in
// `a = b = 1` each target gets the value, left to right.
struct Assign {
  std::vector<ExprRef> targets;
  ExprRef value;
};
struct AugAssign {  // name op= value
  std::string name;
  BinaryOp op;
  Span op_span;
  ExprRef value;
};
struct ExprStmt {
  ExprRef expr;
};
struct Assert {
  ExprRef test;
  ExprRef message;  // null when absent
};
struct Meta {  // ":kernels x" -> name "kernels", args {"x"}
  std::string name;
  std::vector<std::string> args;
  std::string text;  // the whole command line as typed, from the ':'
};

struct IfBranch {
  ExprRef test;
  Block body;
};
struct If {  // if/elif: one branch each, in order; else_body null when there is no else
  std::vector<IfBranch> branches;
  Block else_body;
};
struct While {
  ExprRef test;
  Block body;
};
struct For {
  ExprRef target;  // a name or a tuple of targets, as an assignment's
  ExprRef iterable;
  Block body;
};
struct DefParam {
  std::string name;
  Span span;
  ExprRef default_value;  // null for a required parameter
};
struct Def {
  std::string name;
  std::vector<DefParam> params;
  Block body;
  std::vector<ExprRef> decorators;  // outermost first, as written
  // Every name the body binds (assignments, for targets, nested defs, parameters): Python makes them
  // local to the whole function, so reading one before it is bound is an error, not a global's value.
  std::vector<std::string> locals;
};
struct Return {
  ExprRef value;  // null: return None
};
struct Break {};
struct Continue {};
struct Pass {};

struct Stmt {
  std::variant<Assign, AugAssign, ExprStmt, Assert, Meta, If, While, For, std::shared_ptr<const Def>, Return, Break,
               Continue, Pass>
      node;
  Span span;  // the statement's first token (a def's name)
};

std::string_view spelling(UnaryOp op);    // "-", "+", "not"
std::string_view spelling(BinaryOp op);   // "+", "//", "@", "**"
std::string_view spelling(CompareOp op);  // "<", "=="
std::string_view spelling(LogicOp op);    // "and"

// The tree as one fully bracketed line, e.g. "(+ 1 (* 2 3))": a parse made visible, for tests and dumps.
// A block prints as "{s1; s2}".
std::string to_sexpr(const Expr& e);
std::string to_sexpr(const Stmt& s);

}  // namespace tr::repl
