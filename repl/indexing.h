#pragma once
// x[...]: tinygrad's indexing on tensors (ints, slices with steps, None, ...), Python's on tuples and lists.
#include <variant>
#include <vector>

#include "repl/span.h"
#include "repl/value.h"

namespace tr::repl {

// One evaluated entry of a subscript, with the span of its expression.
struct IndexItem {
  std::variant<Value, Slice, Ellipsis> index;
  Span span;
  tr::ExprRef stop_var = nullptr;  // a Slice `:n` whose stop is a bound Variable: the dim it keeps is symbolic
};

// object[items]; `span` (the bracket) locates errors that are about the whole subscript.
Value subscript_value(const Value& object, const std::vector<IndexItem>& items, Span span);

}  // namespace tr::repl
