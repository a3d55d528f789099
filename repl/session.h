#pragma once
// A session runs statements against its names: the globals, and while a function runs, its call's
// scope. A statement that fails keeps every name bound before the failure (a loop's earlier rounds
// included, as in Python), so an interactive session carries on after any error.
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "repl/arguments.h"
#include "repl/evaluator.h"
#include "repl/print_event.h"
#include "repl/source_error.h"
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
  SourceRef source;     // where the assert is written
};
// A meta command is left to the host, which owns the devices, the views and the history.
using Outcome = std::variant<std::monostate, Shown, AssertResult, Meta>;

// Receives the outcome of each statement that runs inside a compound statement or a function (an
// assert in a loop, a meta command in a function). It may throw to stop the program there.
using OutcomeSink = std::function<void(const Outcome&, const Stmt&)>;

// Python's limit on nested calls; deeper recursion is an error, never a stack overflow (repl/call_stack.h).
constexpr int kMaxCallDepth = 1000;

class Session {
 public:
  explicit Session(PrintSink print, OutcomeSink nested = {}) : print_(std::move(print)), nested_(std::move(nested)) {}

  // Runs one statement of the top level, written in source (null: an unnamed input). A simple
  // statement's outcome is returned; a compound statement's inner outcomes go to the OutcomeSink.
  // Throws SourceError (or tr::Error from the engine) on failure.
  Outcome execute(const Stmt& stmt, const SourceRef& source = nullptr);
  // e evaluated where the program is now: inside a function's call, its names come first.
  Value evaluate(const Expr& e) { return Evaluator(*this).eval(e); }
  // What help(e) prints: the help entry of what e names (repl/help_call.cpp).
  std::string help(const Expr& e) { return Evaluator(*this).help(e); }

  const Environment& names() const { return globals_; }
  // Variables, functions, dtypes: what a name may complete to.
  std::vector<std::string> known_names() const { return Evaluator::known_names_with(variable_names()); }
  // Python's `_`: an interactive session's last shown value.
  void set_last_shown(const Value& v) { globals_.insert_or_assign("_", v); }
  void reset() { globals_.clear(); }

  // For the evaluator: the value of a variable (null when no variable has the name), the names in
  // sight, a call of a def's value, and print's sink.
  const Value* lookup(std::string_view id, Span span) const;
  std::vector<std::string> variable_names() const;
  Value call(const Function& f, const CallArgs& args);
  const PrintSink& print() const { return print_; }
  // A def's or a lambda's value, closing over the names in sight now.
  Value make_function(const std::shared_ptr<const Def>& def);
  // [element for target in iterable if condition ...], its variables in a scope of their own.
  Value comprehension(const Comprehension& c);

 private:
  enum class Flow : uint8_t { Next, Break, Continue, Return };

  Outcome execute_here(const Stmt& stmt, const SourceRef& source);
  Flow run_block(const std::vector<Stmt>& body);
  Flow run(const Stmt& stmt);
  Outcome simple(const Stmt& stmt);
  void nested_outcome(const Outcome& o, const Stmt& stmt);
  void assign(const Expr& target, const Value& v);
  void bind_name(const std::string& name, Value v);
  void set_attribute(const Attribute& target, const Value& v, Span span);
  void set_item(const Subscript& target, const Value& v, Span span);
  void augmented(const AugAssign& a);
  Flow run_with(const With& w);
  void comprehend(const Comprehension& c, size_t clause, std::vector<Value>& out);
  Flow run_for(const For& f);
  Value define(const Def& d, const std::shared_ptr<const Def>& ref);
  Value run_call(const Function& f, const CallArgs& args);
  // A @jit function's call: run, capture or replay (repl/jit_call.cpp).
  Value call_jit(const Function& f, const CallArgs& args);
  // @jit and @TinyJit, unless a variable has that name.
  bool is_jit_decorator(const Expr& e) const;
  AssertResult check(const Assert& a);

  Environment globals_;
  PrintSink print_;
  OutcomeSink nested_;
  std::shared_ptr<Scope> scope_;  // the running call's scope; null at the top level
  SourceRef source_;              // where the running statements are written
  int depth_ = 0;                 // calls running
  Value returned_;                // what the last `return` gave
};

}  // namespace tr::repl
