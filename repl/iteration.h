#pragma once
// What a for loop, a comprehension, *args and list() walk: a tuple's or list's items, a tensor's rows,
// a string's characters, a dict's keys.
#include <vector>

#include "repl/span.h"
#include "repl/value.h"

namespace tr::repl {

// Throws SourceError at span for a value that cannot be iterated.
std::vector<Value> iteration_items(const Value& v, Span span);

}  // namespace tr::repl
