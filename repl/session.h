#pragma once
// A session runs statements against its names. A statement that fails leaves every name as it was
// before it, so an interactive session carries on after any error.
#include <string>
#include <variant>
#include <vector>

#include "repl/evaluator.h"
#include "repl/print_event.h"
#include "repl/syntax.h"

namespace tr::repl {

// What one statement leaves for its host to show.
struct Shown {  // an expression statement's value (None is not shown, as in Python's shell)
  Value value;
};
struct AssertResult {
  bool ok = true;
  std::string message;  // on failure: "assertion failed: 11 == 12" (both sides printed like print)
  Span span;            // the asserted expression (its comparison operator for a comparison)
};
// A meta command is left to the host, which owns the devices, the views and the history.
using Outcome = std::variant<std::monostate, Shown, AssertResult, Meta>;

class Session {
 public:
  explicit Session(PrintSink print) : print_(std::move(print)) {}

  // Throws SourceError (or tr::Error from the engine) on failure; the names stay as they were.
  Outcome execute(const Stmt& stmt);
  Value evaluate(const Expr& e) const { return Evaluator(env_, print_).eval(e); }

  const Environment& names() const { return env_; }
  // Variables, functions, dtypes: what a name may complete to.
  std::vector<std::string> known_names() const { return Evaluator(env_, print_).known_names(); }
  void reset() { env_.clear(); }

 private:
  AssertResult check(const Assert& a) const;

  Environment env_;
  PrintSink print_;
};

}  // namespace tr::repl
