#pragma once
// Integer index expressions over loop variables, simplified as they are built.
// Division and modulo are floor operations; the linearizer only evaluates an index where its
// validity holds, and there every numerator is non-negative, so C's truncating ops agree.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tr {

struct Expr;
using ExprRef = std::shared_ptr<const Expr>;

enum class ExprOp : uint8_t { Const, Var, Add, Mul, Div, Mod, Lt, And };

struct Expr {
  ExprOp op;
  int64_t value = 0;         // Const: the value; Mul/Div/Mod/Lt: the constant right operand
  std::string name;          // Var
  int64_t min = 0, max = 0;  // inclusive bounds of the value
  std::vector<ExprRef> srcs; // Add: terms (at most one Const, last); And: conditions; Mul/Div/Mod/Lt: one
  // Var: the node of the lowering it stands for (a SPECIAL or RANGE, core/codegen/lowering.h), so that two
  // loops printed alike stay apart; -1 for a user's Variable, which its name identifies
  int node = -1;
};

ExprRef cnst(int64_t v);
ExprRef var(std::string name, int64_t min, int64_t max);
ExprRef node_var(int node, std::string name, int64_t min, int64_t max);
ExprRef add(const ExprRef& a, const ExprRef& b);
ExprRef add(const ExprRef& a, int64_t b);
ExprRef mul(const ExprRef& a, int64_t b);
ExprRef floordiv(const ExprRef& a, int64_t b);  // b > 0
ExprRef mod(const ExprRef& a, int64_t b);       // b > 0
ExprRef lt(const ExprRef& a, int64_t b);        // 1 when a < b else 0
ExprRef ge(const ExprRef& a, int64_t b);        // 1 when a >= b else 0
ExprRef land(const ExprRef& a, const ExprRef& b);

bool is_const(const ExprRef& e, int64_t v);
// Structural equality and hash: two expressions built apart from the same variables are the same.
bool same_expr(const ExprRef& a, const ExprRef& b);
size_t expr_hash(const ExprRef& e);
// The names of the variables in e, each once, sorted.
std::vector<std::string> var_names(const ExprRef& e);
// Evaluates with the given variable values (by name); used by tests and the reference paths.
int64_t evaluate(const ExprRef& e, const std::vector<std::pair<std::string, int64_t>>& vars);
std::string render(const ExprRef& e);  // "((gidx0*4)+ridx0)", "(idx0<3)"

}  // namespace tr
