#pragma once
// The language's operators on any values: Python's rules on plain values, the engine on tensors, where
// a number beside a tensor becomes a constant by tinygrad's rule (int tensor * 2.5 is float). Errors
// are tr::Error without a position; the evaluator adds the operator's.
#include <string_view>
#include <utility>

#include "repl/syntax.h"
#include "repl/value.h"

namespace tr::repl {

Value apply_binary(BinaryOp op, const Value& a, const Value& b);
Value apply_compare(CompareOp op, const Value& a, const Value& b);  // a bool, or a bool tensor
Value apply_unary(UnaryOp op, const Value& a);

// Python's bool(v). A tensor has one only when it holds one element (that element is read).
bool truthy(const Value& v);

// Two tensors for a binary tensor operation, at least one of a and b being a tensor and the other a
// tensor or a number; `op` names the operation in the error otherwise.
std::pair<Tensor, Tensor> tensor_operands(const Value& a, const Value& b, std::string_view op);

// a ** b with a tensor on at least one side: a number on the other side is a constant power
// (Tensor::pow(ConstValue)) or base (Tensor::rpow), as tinygrad's rules rewrite those.
Tensor power(const Value& a, const Value& b);

// cond.where(a, b) with numbers allowed for a and b, typed as tinygrad types them.
Tensor select(const Tensor& cond, const Value& a, const Value& b);

}  // namespace tr::repl
