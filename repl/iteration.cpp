#include "repl/iteration.h"

#include "core/base/interrupt.h"
#include "repl/source_error.h"
#include "repl/value_format.h"

namespace tr::repl {
namespace {

// A list of a range's ints is built at once: past this many it would not fit in memory.
constexpr int64_t kMaxListed = int64_t{1} << 27;

}  // namespace

void for_each_item(const Value& v, Span span, const std::function<bool(const Value&)>& each) {
  if (const RangeValue* r = v.get_if<RangeValue>()) {
    const int64_t n = r->size();
    for (int64_t i = 0; i < n; i++) {
      check_interrupt();
      if (!each(r->at(i))) return;
    }
    return;
  }
  for (const Value& item : iteration_items(v, span)) {
    check_interrupt();
    if (!each(item)) return;
  }
}

std::vector<Value> iteration_items(const Value& v, Span span) {
  if (const std::vector<Value>* items = sequence_items(v)) return *items;
  if (const RangeValue* r = v.get_if<RangeValue>()) {
    const int64_t n = r->size();
    if (n > kMaxListed)
      fail_at(span, "memory", "{} holds {} ints, too many for a list (at most {})", repr_value(*r), n, kMaxListed);
    std::vector<Value> ints;
    ints.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; i++) {
      check_interrupt();
      ints.emplace_back(r->at(i));
    }
    return ints;
  }
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
