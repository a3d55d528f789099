#pragma once
// tinygrad 0.14's TRAINING context variable: an optimizer steps only while it is set. Context(TRAINING=1)
// sets it for the body of a `with` statement or, as a decorator, for every call of a def.
#include "repl/arguments.h"
#include "repl/print_event.h"

namespace tr::repl {

bool training();

// Sets TRAINING while it lives and puts the previous value back however the scope is left.
class TrainingScope {
 public:
  explicit TrainingScope(bool on);
  ~TrainingScope();
  TrainingScope(const TrainingScope&) = delete;
  TrainingScope& operator=(const TrainingScope&) = delete;

 private:
  bool saved_;
};

// Context(TRAINING=1): the context object that `with` enters and `@` applies.
Value context_fn(const CallArgs& call, const PrintSink&);

}  // namespace tr::repl
