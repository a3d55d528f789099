#include "repl/training.h"

#include <cstdlib>

#include "repl/operators.h"
#include "repl/nn.h"
#include "repl/source_error.h"

namespace tr::repl {
namespace {

// As tinygrad's TRAINING, the environment gives its value when nothing else has set it.
bool& flag() {
  static bool on = [] {
    const char* v = std::getenv("TRAINING");
    return v && std::atoi(v) != 0;
  }();
  return on;
}

}  // namespace

bool training() { return flag(); }

TrainingScope::TrainingScope(bool on) : saved_(flag()) { flag() = on; }
TrainingScope::~TrainingScope() { flag() = saved_; }

Value context_fn(const CallArgs& call, const PrintSink&) {
  if (!call.args.empty()) fail_at(call.args[0].span, "type", "Context() takes keyword arguments only: Context(TRAINING=1)");
  if (call.keywords.size() != 1 || call.keywords[0].name != "TRAINING") {
    const Span at_span = call.keywords.empty() ? call.span : call.keywords[0].span;
    fail_at(at_span, "type", "Context() here sets TRAINING only: Context(TRAINING=1) (the other variables are "
                             "command-line settings: DEBUG, BEAM, NOOPT)");
  }
  const KeywordValue& k = call.keywords[0];
  if (!is_number(k.value)) fail_at(k.span, "type", "TRAINING takes 0 or 1, not {}", type_name(k.value));
  return std::make_shared<Object>(Object{TrainingContext{truthy(k.value)}});
}

}  // namespace tr::repl
