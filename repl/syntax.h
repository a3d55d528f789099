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
enum class CompareOp : uint8_t { Lt, Le, Gt, Ge, Eq, Ne, Is, IsNot, In, NotIn };
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
  std::string name;  // empty for `**mapping`, whose items become keywords
  Span span;         // the keyword's name, or the `**`
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
struct Starred {  // *xs: its items spread into a call's arguments, a list or a tuple
  ExprRef value;
};
struct DictEntry {
  ExprRef key, value;
};
struct DictExpr {
  std::vector<DictEntry> entries;
};
struct IfExpr {  // body if test else orelse
  ExprRef test, body, orelse;
};
struct CompFor {  // for target in iterable if c1 if c2
  ExprRef target;
  ExprRef iterable;
  std::vector<ExprRef> conditions;
};
enum class CompKind : uint8_t { List, Tuple };  // [...] or (...) / a call's lone argument
struct Comprehension {
  CompKind kind;
  ExprRef element;
  std::vector<CompFor> clauses;  // outermost first
};
struct Def;
struct Lambda {
  std::shared_ptr<const Def> def;  // its body is one return of the expression
};
// x.softmax? and ?name, IPython's help: the entry of what target names, printed without calling it. A
// node of its own, so that it asks for help whatever a variable named `help` holds.
struct Help {
  ExprRef target;
};

struct Expr {
  std::variant<Literal, EllipsisLiteral, Name, Unary, Binary, Logic, Comparison, Call, Attribute, Subscript, SliceExpr,
               ListExpr, TupleExpr, Starred, DictExpr, IfExpr, Comprehension, Lambda, Help>
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

// target = value, where a target is a name, an attribute (opt.lr), a subscript (x[1:3]) or a tuple or
// list of targets (a, b = b, a); in `a = b = 1` each target gets the value, left to right.
struct Assign {
  std::vector<ExprRef> targets;
  ExprRef value;
};
struct AugAssign {  // target op= value, the target a name, an attribute or a subscript
  ExprRef target;
  BinaryOp op;
  Span op_span;
  ExprRef value;
};
enum class Declaration : uint8_t { Global, Nonlocal };
struct Declare {  // global a, b / nonlocal a
  Declaration kind;
  std::vector<std::string> names;
};
struct With {  // with context [as target]: body
  ExprRef context;
  ExprRef target;  // null without `as`
  Block body;
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
enum class DefParamKind : uint8_t {
  Positional,   // a, b=2: by position or by keyword
  VarArgs,      // *args: the rest of the positional arguments, as a tuple
  KeywordOnly,  // after *args or a bare *: by keyword only
  VarKeywords,  // **kwargs: the rest of the keywords, as a dict
};
struct DefParam {
  std::string name;
  Span span;
  ExprRef default_value;  // null for a required parameter
  DefParamKind kind = DefParamKind::Positional;
};
struct Def {
  std::string name;
  std::vector<DefParam> params;
  Block body;
  std::vector<ExprRef> decorators;  // outermost first, as written
  Span start;                       // its first decorator's '@', or its 'def'
  // Every name the body binds (assignments, for targets, nested defs, parameters): Python makes them
  // local to the whole function, so reading one before it is bound is an error, not a global's value.
  // Names declared global or nonlocal are not among them.
  std::vector<std::string> locals;
  std::vector<std::string> globals, nonlocals;  // sorted
};
struct Return {
  ExprRef value;  // null: return None
};
struct Break {};
struct Continue {};
struct Pass {};

struct Stmt {
  std::variant<Assign, AugAssign, ExprStmt, Assert, Meta, If, While, For, std::shared_ptr<const Def>, Return, Break,
               Continue, Pass, Declare, With>
      node;
  Span span;  // the statement's first token (a def's name)
};

std::string_view spelling(UnaryOp op);    // "-", "+", "not"
std::string_view spelling(BinaryOp op);   // "+", "//", "@", "**"
std::string_view spelling(CompareOp op);  // "<", "==", "is not", "in"
std::string_view spelling(LogicOp op);    // "and"

// Where a statement's text starts: its first token, which for a def is its first decorator or 'def' (the
// statement's span is the def's name, which errors point at).
Span text_start(const Stmt& s);

// The tree as one fully bracketed line, e.g. "(+ 1 (* 2 3))": a parse made visible, for tests and dumps.
// A block prints as "{s1; s2}".
std::string to_sexpr(const Expr& e);
std::string to_sexpr(const Stmt& s);

}  // namespace tr::repl
