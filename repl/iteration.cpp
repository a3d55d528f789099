#include "repl/iteration.h"

#include "repl/source_error.h"

namespace tr::repl {

std::vector<Value> iteration_items(const Value& v, Span span) {
  if (const std::vector<Value>* items = sequence_items(v)) return *items;
  if (const Tensor* t = v.get_if<Tensor>()) {
    if (t->ndim() == 0) fail_at(span, "type", "iteration over a 0-d tensor");
    std::vector<Value> rows;
    for (int64_t i = 0; i < t->shape()[0]; i++) rows.emplace_back(at(span, [&] { return t->getitem({i}); }));
    return rows;
  }
  if (const std::string* s = v.get_if<std::string>()) {
    std::vector<Value> chars;
    for (char c : *s) chars.emplace_back(std::string(1, c));
    return chars;
  }
  if (const Dict* d = v.get_if<Dict>()) return std::vector<Value>(d->keys.begin(), d->keys.end());
  fail_at(span, "type", "'{}' object is not iterable", type_name(v));
}

}  // namespace tr::repl
