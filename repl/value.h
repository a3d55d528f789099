#pragma once
// The values a .tg program computes with: Python's scalars, strings and sequences, dtypes, and tensors.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/ir/dtype.h"
#include "core/tensor/tensor.h"

namespace tr::repl {

struct Value;
struct Function;
using FunctionRef = std::shared_ptr<const Function>;
struct Object;  // repl/nn.h: a layer or an optimizer
struct JitFunction;  // repl/jit_call.h
using ObjectRef = std::shared_ptr<Object>;

struct NoneValue {};
struct List {
  std::vector<Value> items;
};
struct Tuple {
  std::vector<Value> items;
};
// Python's range: the ints from start towards stop by step, made one at a time as they are asked for
// (a loop over range(10**9) holds no list of them). make_range makes one.
struct RangeValue {
  int64_t start = 0;
  int64_t stop = 0;
  int64_t step = 1;  // never 0
  int64_t size() const;
  int64_t at(int64_t i) const { return start + i * step; }  // the i-th int, 0 <= i < size()
};
// A dict with string keys (what **kwargs collects), in insertion order as Python's.
struct Dict {
  std::vector<std::string> keys;
  std::vector<Value> values;  // one per key
};

using ValueVariant = std::variant<NoneValue, bool, int64_t, double, std::string, DType, Tensor, Tuple, List, Dict,
                                  FunctionRef, ObjectRef, RangeValue>;

struct Value : ValueVariant {
  using ValueVariant::ValueVariant;
  Value() : ValueVariant(NoneValue{}) {}

  template <typename T>
  bool is() const {
    return std::holds_alternative<T>(*this);
  }
  template <typename T>
  const T* get_if() const {
    return std::get_if<T>(this);
  }
};

using Environment = std::map<std::string, Value, std::less<>>;

struct Def;
struct SourceText;

// The names of one running function call. Python's closures: a function defined inside another reads
// the enclosing call's names through parent.
struct Scope {
  Environment names;
  std::shared_ptr<Scope> parent;  // null: the session's globals come next
  const Def* def = nullptr;       // the function running: its locals are never read from outside
};

// A def's value: the definition, its defaults (evaluated once, when the def ran), the scope it was
// defined in, and the source it was written in (for errors inside it).
struct Function {
  std::shared_ptr<const Def> def;
  std::vector<std::optional<Value>> defaults;  // one per parameter; nullopt for a required one
  std::shared_ptr<Scope> closure;
  std::shared_ptr<const SourceText> source;
  std::shared_ptr<JitFunction> jit;  // @jit: its capture and replays; null for a plain def
  std::optional<bool> training;  // set by @Context(TRAINING=...): TRAINING while a call runs
};

// Python's name of the value's type ("int", "tuple", "Tensor"), for error messages.
std::string_view type_name(const Value& v);

// bool, int or float: what mixes with a tensor as a constant and what Python arithmetic works on.
bool is_number(const Value& v);
ConstValue to_const(const Value& v);  // v must be a number
Value from_const(const ConstValue& c);

// range(start, stop, step); throws tr::Error for a step of 0, or for more ints than an int64 counts.
RangeValue make_range(int64_t start, int64_t stop, int64_t step);

// The items of a tuple or a list; null for any other value.
const std::vector<Value>* sequence_items(const Value& v);

// d[key]'s value, or null when d has no such key.
const Value* dict_find(const Dict& d, std::string_view key);
// Sets d[key], keeping the key's place when it is there already.
void dict_set(Dict& d, const std::string& key, Value v);

// A tuple of ints, as x.shape is.
Value shape_value(const Shape& shape);

}  // namespace tr::repl
