#include "repl/print_event.h"

#include "repl/format.h"
#include "repl/value_format.h"

namespace tr::repl {

PrintEvent make_print_event(const std::vector<Value>& values, Span span) {
  std::vector<Tensor> tensors;
  for (const Value& v : values) {
    if (const Tensor* t = v.get_if<Tensor>()) tensors.push_back(*t);
  }
  // one schedule for everything printed together, as the engine would fuse it
  if (!tensors.empty()) realize_all(tensors);
  PrintEvent event{span, {}, ""};
  for (const Value& v : values) {
    PrintedValue p{v, std::nullopt};
    if (const Tensor* t = v.get_if<Tensor>()) p.array = fetch(*t);
    event.text += (event.values.empty() ? "" : " ") + (p.array ? format_array(*p.array) : str_value(v));
    event.values.push_back(std::move(p));
  }
  return event;
}

}  // namespace tr::repl
