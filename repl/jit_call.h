#pragma once
// @jit on a def: tinygrad's TinyJit (core/jit/jit.h) as the language calls it.
#include <string>

#include "core/jit/jit.h"
#include "repl/span.h"
#include "repl/value.h"

namespace tr::repl {

struct JitFunction {
  explicit JitFunction(std::string name) : jit(std::move(name)) {}
  Jit jit;
  Value returned;  // what the captured call returned: a replay returns it with its tensors new
};

// The function f with a Jit of its own: what `@jit` above a def binds. f must be a def's value.
Value jitted(const Value& f, Span span);

}  // namespace tr::repl
