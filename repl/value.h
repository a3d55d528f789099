#pragma once
// The values a .tg program computes with: Python's scalars, strings and sequences, dtypes, and tensors.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/dtype.h"
#include "core/tensor.h"

namespace tr::repl {

struct Value;

struct NoneValue {};
struct List {
  std::vector<Value> items;
};
struct Tuple {
  std::vector<Value> items;
};

using ValueVariant = std::variant<NoneValue, bool, int64_t, double, std::string, DType, Tensor, Tuple, List>;

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

// Python's name of the value's type ("int", "tuple", "Tensor"), for error messages.
std::string_view type_name(const Value& v);

// bool, int or float: what mixes with a tensor as a constant and what Python arithmetic works on.
bool is_number(const Value& v);
ConstValue to_const(const Value& v);  // v must be a number
Value from_const(const ConstValue& c);

// The items of a tuple or a list; null for any other value.
const std::vector<Value>* sequence_items(const Value& v);

// A tuple of ints, as x.shape is.
Value shape_value(const Shape& shape);

}  // namespace tr::repl
