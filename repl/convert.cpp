#include "repl/convert.h"

#include <limits>

#include "core/runtime/device_name.h"
#include "repl/source_error.h"
#include "repl/symbolic_variable.h"
#include "repl/suggest.h"

namespace tr::repl {
namespace {

[[noreturn]] void wrong_type(const Arg& a, std::string_view expected) {
  fail_at(a.span, "type", "{} must be {}, not {}", a.what, expected, type_name(a.value));
}

// The ints of a tuple or list argument, each checked; `expected` names the whole for the message.
std::vector<int64_t> ints_of(const Arg& a, const std::vector<Value>& items, std::string_view expected) {
  std::vector<int64_t> out;
  for (const Value& v : items) {
    const int64_t* i = v.get_if<int64_t>();
    if (!i) fail_at(a.span, "type", "{} must be {}, but it holds a {}", a.what, expected, type_name(v));
    out.push_back(*i);
  }
  return out;
}

// Ints given one per argument, or all in one tuple or list argument.
std::vector<int64_t> spread_ints(const std::vector<Arg>& args, std::string_view expected) {
  if (args.size() == 1 && sequence_items(args[0].value))
    return ints_of(args[0], *sequence_items(args[0].value), expected);
  std::vector<int64_t> out;
  for (const Arg& a : args) {
    if (!a.value.is<int64_t>()) wrong_type(a, "an int");
    out.push_back(std::get<int64_t>(a.value));
  }
  return out;
}

int narrow_dim(const Arg& a, int64_t d) {
  if (d < std::numeric_limits<int>::min() || d > std::numeric_limits<int>::max()) {
    fail_at(a.span, "index", "{} is out of range: {}", a.what, d);
  }
  return static_cast<int>(d);
}

}  // namespace

int64_t to_int(const Arg& a) {
  if (const int64_t* i = a.value.get_if<int64_t>()) return *i;
  wrong_type(a, "an int");
}

double to_float(const Arg& a) {
  if (const int64_t* i = a.value.get_if<int64_t>()) return static_cast<double>(*i);
  if (const double* d = a.value.get_if<double>()) return *d;
  wrong_type(a, "a number");
}

bool to_bool(const Arg& a) {
  if (const bool* b = a.value.get_if<bool>()) return *b;
  wrong_type(a, "True or False");
}

std::string to_str(const Arg& a) {
  if (const std::string* s = a.value.get_if<std::string>()) return *s;
  wrong_type(a, "a string");
}

std::vector<std::string> to_devices(const Arg& a) {
  const std::vector<Value>* items = sequence_items(a.value);
  if (!items) wrong_type(a, "a tuple or list of device names");
  std::vector<std::string> out;
  for (const Value& v : *items) {
    const std::string* s = v.get_if<std::string>();
    if (!s) wrong_type(a, "a tuple or list of device names");
    out.push_back(canonical_device(*s));
  }
  return out;
}

std::string to_device(const Arg& a) {
  if (a.value.get_if<std::string>()) return to_str(a);
  if (!sequence_items(a.value)) wrong_type(a, "a device name or a tuple of them");
  return multi_device_name(to_devices(a));
}

ConstValue to_number(const Arg& a) {
  if (!is_number(a.value)) wrong_type(a, "a number");
  return to_const(a.value);
}

DType to_dtype(const Arg& a) {
  if (const DType* t = a.value.get_if<DType>()) return *t;
  if (const std::string* s = a.value.get_if<std::string>()) {
    if (const std::optional<DType> t = parse_dtype(*s)) return *t;
    fail_at(a.span, "value", "unknown dtype '{}'{}", *s, did_you_mean(*s, dtype_names()));
  }
  wrong_type(a, "a dtype");
}

std::optional<DType> to_optional_dtype(const Arg* a) {
  if (!a || a->value.is<NoneValue>()) return std::nullopt;
  return to_dtype(*a);
}

Tensor to_tensor(const Arg& a) {
  if (const Tensor* t = a.value.get_if<Tensor>()) return *t;
  wrong_type(a, "a Tensor");
}

std::vector<int64_t> to_ints(const Arg& a) {
  if (const int64_t* i = a.value.get_if<int64_t>()) return {*i};
  if (const std::vector<Value>* items = sequence_items(a.value)) return ints_of(a, *items, "an int or a tuple of ints");
  wrong_type(a, "an int or a tuple of ints");
}

Shape to_shape(const std::vector<Arg>& args, bool allow_minus_one) {
  // a bound Variable stands for its value (shape_variables says which dims it makes symbolic)
  std::vector<Arg> values = args;
  for (Arg& a : values) {
    if (const SymbolicVariable* v = variable_of(a.value)) a.value = bound_value(a, *v);
    if (const std::vector<Value>* items = sequence_items(a.value)) {
      std::vector<Value> replaced = *items;
      for (Value& item : replaced)
        if (const SymbolicVariable* v = variable_of(item)) item = bound_value(a, *v);
      a.value = Tuple{std::move(replaced)};
    }
  }
  const Shape shape = spread_ints(values, "a shape of ints");
  for (size_t i = 0; i < shape.size(); i++) {
    if (shape[i] >= 0 || (allow_minus_one && shape[i] == -1)) continue;
    fail_at(args[args.size() == 1 ? 0 : i].span, "value", "negative dimension {} in shape", shape[i]);
  }
  return shape;
}

std::vector<int> to_dims(const std::vector<Arg>& args) {
  std::vector<int> out;
  const std::vector<int64_t> dims = spread_ints(args, "axis indices (ints)");
  for (size_t i = 0; i < dims.size(); i++) out.push_back(narrow_dim(args[args.size() == 1 ? 0 : i], dims[i]));
  return out;
}

Axes to_axes(const Arg* a) {
  if (!a) return std::nullopt;
  std::vector<int> axes;
  for (int64_t i : to_ints(*a)) axes.push_back(narrow_dim(*a, i));
  return axes;
}

int to_dim(const Arg& a) { return narrow_dim(a, to_int(a)); }

const std::vector<std::string>& dtype_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (int i = 0; i < kNumDTypes; i++) {
      const DType t = static_cast<DType>(i);
      out.emplace_back(name(t));
      if (short_name(t) != name(t) && parse_dtype(short_name(t)) == t) out.emplace_back(short_name(t));
    }
    return out;
  }();
  return names;
}

namespace {

template <typename T>
T read_or(const Bound& b, std::string_view name, T (*read)(const Arg&), T fallback) {
  const Arg* a = b.find(name);
  return a ? read(*a) : std::move(fallback);
}

}  // namespace

double number_or(const Bound& b, std::string_view name, double fallback) { return read_or(b, name, to_float, fallback); }
bool flag_or(const Bound& b, std::string_view name, bool fallback) { return read_or(b, name, to_bool, fallback); }
int64_t int_or(const Bound& b, std::string_view name, int64_t fallback) { return read_or(b, name, to_int, fallback); }
std::vector<int64_t> ints_or(const Bound& b, std::string_view name, std::vector<int64_t> fallback) {
  return read_or(b, name, to_ints, std::move(fallback));
}
std::optional<int> optional_dim(const Bound& b, std::string_view name) {
  const Arg* a = b.find(name);
  return a ? std::optional<int>(to_dim(*a)) : std::nullopt;
}
int dim_or(const Bound& b, std::string_view name, int fallback) { return read_or(b, name, to_dim, fallback); }

}  // namespace tr::repl
