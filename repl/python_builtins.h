#pragma once
// Python's own built-in functions on plain values: range (lazy, as Python's), len, int, float, str, abs,
// min, max, round, list, tuple, with Python's rules and messages. They sit in the same table as the tensor
// functions.
#include "repl/arguments.h"
#include "repl/print_event.h"

namespace tr::repl {

Value range_fn(const CallArgs& call, const PrintSink&);
Value len_fn(const CallArgs& call, const PrintSink&);
Value int_fn(const CallArgs& call, const PrintSink&);
Value float_fn(const CallArgs& call, const PrintSink&);
Value str_fn(const CallArgs& call, const PrintSink&);
Value abs_fn(const CallArgs& call, const PrintSink&);
Value min_fn(const CallArgs& call, const PrintSink&);
Value max_fn(const CallArgs& call, const PrintSink&);
Value round_fn(const CallArgs& call, const PrintSink&);
Value list_fn(const CallArgs& call, const PrintSink&);
Value tuple_fn(const CallArgs& call, const PrintSink&);

}  // namespace tr::repl
