#pragma once
// What print(...) and x.numpy() produce: the text, and the values with each tensor's data, so that a
// plain REPL, the TUI and --json all show the same thing without realizing twice.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "repl/host_array.h"
#include "repl/span.h"
#include "repl/value.h"

namespace tr::repl {

struct PrintedValue {
  Value value;
  std::optional<HostArray> array;  // a tensor's values
};

struct PrintEvent {
  Span span;  // the print call, or the numpy() method
  std::vector<PrintedValue> values;
  std::string text;  // the values' str() joined by spaces, without a trailing newline
};

using PrintSink = std::function<void(const PrintEvent&)>;

// Realizes the tensors among values in one go, then reads them back.
PrintEvent make_print_event(const std::vector<Value>& values, Span span);

}  // namespace tr::repl
