#pragma once
// tinygrad's Variable("n", lo, hi) and its .bind(v): a symbolic size. A bound Variable (or a size
// that grows with it: n + 1, 2 * n) stands in a shape (creation, reshape, a slice's stop) for its
// value, and the tensor's dim is then symbolic: its kernels take the Variable's value as an argument,
// so one compiled kernel serves every value.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/shape/symbolic.h"
#include "repl/arguments.h"
#include "repl/print_event.h"
#include "repl/syntax.h"

namespace tr::repl {

struct SymbolicVariable {
  tr::ExprRef var;               // the Variable: its name and bounds
  std::optional<int64_t> value;  // set by .bind(v)
  tr::ExprRef size;              // what it stands for: var, or a size that grows with it (n + 1, 2 * n)
};

// Variable(name, lo, hi)
Value variable_fn(const CallArgs& call, const PrintSink&);
// The Variable a value holds, or null.
const SymbolicVariable* variable_of(const Value& v);
// The value of a bound Variable argument (of its size, for n + 1 or 2 * n); an unbound one is an error
// at its span.
int64_t bound_value(const Arg& a, const SymbolicVariable& v);
// n + 1, n - 1, 2 * n and n * 2 of a Variable n (bound or not) and an int: a size that grows with n.
// Nothing else takes a Variable.
Value variable_arithmetic(BinaryOp op, const Value& a, const Value& b);
// Per entry of a shape's arguments (as to_shape reads them), the Variable bound there or null; empty
// when there is none.
std::vector<tr::ExprRef> shape_variables(const std::vector<Arg>& args);

// t with the dims that shape_args give as bound Variables made symbolic (errors at span).
Tensor with_symbolic_dims(const Tensor& t, const std::vector<Arg>& shape_args, Span span);

Value variable_attribute(const SymbolicVariable& v, std::string_view name, Span span);
Value call_variable_method(const SymbolicVariable& v, const CallArgs& call);
// Variable('n', 1, 64), with .bind(5) once bound
std::string variable_str(const SymbolicVariable& v);

}  // namespace tr::repl
