#include "repl/tensor_literal.h"

#include "repl/source_error.h"

namespace tr::repl {
namespace {

// Walks nested lists depth first, fixing the shape from the first list met at each depth.
class Flattener {
 public:
  explicit Flattener(const Arg& data) : data_(data) { walk(data.value, 0); }

  Shape shape;
  std::vector<ConstValue> values;
  bool all_bool = true, all_int = true;

 private:
  void walk(const Value& v, size_t depth) {
    if (const std::vector<Value>* items = sequence_items(v)) {
      const int64_t n = static_cast<int64_t>(items->size());
      if (leaf_depth_ && depth >= *leaf_depth_) ragged();
      if (depth == shape.size()) {
        shape.push_back(n);
      } else if (shape[depth] != n) {
        ragged();
      }
      for (const Value& item : *items) walk(item, depth + 1);
      return;
    }
    if (!is_number(v)) {
      fail_at(data_.span, "type", "{} must hold numbers, but it holds a {}", data_.what, type_name(v));
    }
    if (!leaf_depth_) leaf_depth_ = depth;
    if (depth != *leaf_depth_ || depth != shape.size()) ragged();
    all_bool = all_bool && v.is<bool>();
    all_int = all_int && !v.is<double>();
    values.push_back(to_const(v));
  }

  [[noreturn]] void ragged() const {
    fail_at(data_.span, "value", "{} is ragged: the lists nested at one depth must all have the same length",
            data_.what);
  }

  const Arg& data_;
  std::optional<size_t> leaf_depth_;
};

}  // namespace

Tensor tensor_from_data(const Arg& data, std::optional<DType> dtype, const std::string& device) {
  const Flattener flat(data);
  const DType t = dtype.value_or(flat.values.empty() ? DType::Float32
                                 : flat.all_bool     ? DType::Bool
                                 : flat.all_int      ? DType::Int32
                                                     : DType::Float32);
  HostData host(t, static_cast<int64_t>(flat.values.size()));
  for (size_t i = 0; i < flat.values.size(); i++) host.set(static_cast<int64_t>(i), flat.values[i]);
  return Tensor::from_host(std::move(host), flat.shape, device);
}

}  // namespace tr::repl
