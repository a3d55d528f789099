#pragma once
// What a for loop, a comprehension, *args and list() walk: a tuple's or list's items, a tensor's rows,
// a string's characters, a dict's keys, a range's ints.
#include <functional>
#include <vector>

#include "repl/span.h"
#include "repl/value.h"

namespace tr::repl {

// Calls each(item) on v's items in order while it returns true. A range makes its ints one at a time,
// so that a loop over range(10**12) starts at once; Ctrl-C stops the walk before any item.
// Throws SourceError at span for a value that cannot be iterated.
void for_each_item(const Value& v, Span span, const std::function<bool(const Value&)>& each);

// All of v's items at once. A range of more ints than a list may hold is an error, and Ctrl-C stops
// the making of a long one.
std::vector<Value> iteration_items(const Value& v, Span span);

}  // namespace tr::repl
