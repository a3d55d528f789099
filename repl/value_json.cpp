#include "repl/value_json.h"

#include <cmath>
#include <cstdlib>

#include "repl/float_text.h"
#include "repl/value_format.h"

namespace tr::repl {
namespace {

// JSON has no spelling for nan and the infinities: they are the strings JSON5 and JavaScript spell them
// with, so that a consumer tells them apart (a null would say nothing).
nlohmann::json json_float(double v, DType t) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  return std::strtod(python_float(v, t).c_str(), nullptr);
}

nlohmann::json json_items(const std::vector<Value>& items) {
  nlohmann::json out = nlohmann::json::array();
  for (const Value& v : items) out.push_back(json_value(v));
  return out;
}

}  // namespace

nlohmann::json json_data(const HostArray& a) {
  nlohmann::json out = nlohmann::json::array();
  for (const ConstValue& v : a.values) {
    if (a.dtype == DType::Bool) {
      out.push_back(as_int(v) != 0);
    } else if (is_float(a.dtype)) {
      out.push_back(json_float(as_double(v), a.dtype));
    } else if (a.dtype == DType::UInt64) {
      out.push_back(static_cast<uint64_t>(as_int(v)));  // its value, held in the int64's bits
    } else {
      out.push_back(as_int(v));
    }
  }
  return out;
}

nlohmann::json json_value(const Value& v) {
  struct {
    nlohmann::json operator()(const NoneValue&) const { return nullptr; }
    nlohmann::json operator()(bool b) const { return b; }
    nlohmann::json operator()(int64_t i) const { return i; }
    nlohmann::json operator()(double d) const { return json_float(d, DType::Float64); }
    nlohmann::json operator()(const std::string& s) const { return s; }
    nlohmann::json operator()(DType t) const { return std::string(name(t)); }
    nlohmann::json operator()(const Tensor& t) const { return repr_value(t); }
    nlohmann::json operator()(const Tuple& t) const { return json_items(t.items); }
    nlohmann::json operator()(const List& l) const { return json_items(l.items); }
    nlohmann::json operator()(const Dict& d) const {
      nlohmann::json out = nlohmann::json::object();
      for (size_t i = 0; i < d.keys.size(); i++) out[d.keys[i]] = json_value(d.values[i]);
      return out;
    }
    nlohmann::json operator()(const FunctionRef& f) const { return repr_value(f); }
    nlohmann::json operator()(const ObjectRef& o) const { return repr_value(o); }
    nlohmann::json operator()(const RangeValue& r) const { return repr_value(r); }  // its ints may be too many to list
  } visitor;
  return std::visit(visitor, static_cast<const ValueVariant&>(v));
}

}  // namespace tr::repl
