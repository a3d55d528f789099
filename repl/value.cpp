#include "repl/value.h"

#include <limits>

#include "core/base/error.h"
#include "repl/nn.h"

namespace tr::repl {

std::string_view type_name(const Value& v) {
  struct {
    std::string_view operator()(const NoneValue&) const { return "NoneType"; }
    std::string_view operator()(bool) const { return "bool"; }
    std::string_view operator()(int64_t) const { return "int"; }
    std::string_view operator()(double) const { return "float"; }
    std::string_view operator()(const std::string&) const { return "str"; }
    std::string_view operator()(DType) const { return "dtype"; }
    std::string_view operator()(const Tensor&) const { return "Tensor"; }
    std::string_view operator()(const Tuple&) const { return "tuple"; }
    std::string_view operator()(const List&) const { return "list"; }
    std::string_view operator()(const Dict&) const { return "dict"; }
    std::string_view operator()(const FunctionRef&) const { return "function"; }
    std::string_view operator()(const ObjectRef& o) const { return object_type(*o); }
    std::string_view operator()(const RangeValue&) const { return "range"; }
  } visitor;
  return std::visit(visitor, static_cast<const ValueVariant&>(v));
}

bool is_number(const Value& v) { return v.is<bool>() || v.is<int64_t>() || v.is<double>(); }

ConstValue to_const(const Value& v) {
  if (const bool* b = v.get_if<bool>()) return *b;
  if (const int64_t* i = v.get_if<int64_t>()) return *i;
  return std::get<double>(v);
}

Value from_const(const ConstValue& c) {
  return std::visit([](auto x) { return Value(x); }, c);
}

namespace {

// How many ints a range holds, counted wide enough for any int64 bounds.
__int128 range_count(int64_t start, int64_t stop, int64_t step) {
  const __int128 distance = step > 0 ? __int128{stop} - start : __int128{start} - stop;
  const __int128 stride = step > 0 ? __int128{step} : -__int128{step};
  return distance <= 0 ? 0 : (distance + stride - 1) / stride;
}

}  // namespace

int64_t RangeValue::size() const { return static_cast<int64_t>(range_count(start, stop, step)); }

RangeValue make_range(int64_t start, int64_t stop, int64_t step) {
  if (step == 0) fail("value", "range() arg 3 must not be zero");
  if (range_count(start, stop, step) > std::numeric_limits<int64_t>::max())
    fail("value", "range({}, {}, {}) holds more ints than a 64-bit length counts", start, stop, step);
  return RangeValue{start, stop, step};
}

const std::vector<Value>* sequence_items(const Value& v) {
  if (const Tuple* t = v.get_if<Tuple>()) return &t->items;
  if (const List* l = v.get_if<List>()) return &l->items;
  return nullptr;
}

const Value* dict_find(const Dict& d, std::string_view key) {
  for (size_t i = 0; i < d.keys.size(); i++)
    if (d.keys[i] == key) return &d.values[i];
  return nullptr;
}

void dict_set(Dict& d, const std::string& key, Value v) {
  for (size_t i = 0; i < d.keys.size(); i++)
    if (d.keys[i] == key) return void(d.values[i] = std::move(v));
  d.keys.push_back(key);
  d.values.push_back(std::move(v));
}

Value shape_value(const Shape& shape) {
  Tuple t;
  for (int64_t d : shape) t.items.emplace_back(d);
  return t;
}

}  // namespace tr::repl
