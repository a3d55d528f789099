#pragma once
// The language's functions: creation (tensor, zeros, arange, rand, ...), where/maximum/minimum,
// allclose, kernels, realize and print. Each binds its arguments with tinygrad's names and defaults.
#include <string>
#include <string_view>
#include <vector>

#include "repl/arguments.h"
#include "repl/print_event.h"

namespace tr::repl {

bool is_builtin(std::string_view name);
const std::vector<std::string>& builtin_names();

// Calls the function call.name (is_builtin must hold). print receives what print() prints.
Value call_builtin(const CallArgs& call, const PrintSink& print);

}  // namespace tr::repl
