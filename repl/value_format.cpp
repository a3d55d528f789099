#include "repl/value_format.h"

#include <fmt/format.h>

#include <cctype>

#include "repl/float_text.h"
#include "repl/format.h"
#include "repl/nn.h"
#include "repl/syntax.h"

namespace tr::repl {
namespace {

std::string quoted(const std::string& s) {
  // Python prefers single quotes, and switches to double ones to avoid escaping a quote.
  const char quote = s.find('\'') != std::string::npos && s.find('"') == std::string::npos ? '"' : '\'';
  std::string out(1, quote);
  for (char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c == quote) {
          out += '\\';
          out += c;
        } else if (std::isprint(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80) {
          out += c;
        } else {
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        }
    }
  }
  return out + quote;
}

std::string join_repr(const std::vector<Value>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); i++) out += (i ? ", " : "") + repr_value(items[i]);
  return out;
}

}  // namespace

std::string dtype_repr(DType t) { return fmt::format("dtypes.{}", short_name(t)); }

std::string str_value(const Value& v) {
  if (const Tensor* t = v.get_if<Tensor>()) return format_array(fetch(*t));
  if (const std::string* s = v.get_if<std::string>()) return *s;
  return repr_value(v);
}

std::string repr_value(const Value& v) {
  struct {
    std::string operator()(const NoneValue&) const { return "None"; }
    std::string operator()(bool b) const { return b ? "True" : "False"; }
    std::string operator()(int64_t i) const { return fmt::format("{}", i); }
    std::string operator()(double d) const { return python_float(d); }
    std::string operator()(const std::string& s) const { return quoted(s); }
    std::string operator()(DType t) const { return dtype_repr(t); }
    std::string operator()(const Tensor& t) const {
      return fmt::format("<Tensor {} {} on {}, {}>", repr_value(shape_value(t.shape())), dtype_repr(t.dtype()),
                         t.device(), t.realized() ? "realized" : "lazy");
    }
    std::string operator()(const Tuple& t) const {
      return t.items.size() == 1 ? "(" + repr_value(t.items[0]) + ",)" : "(" + join_repr(t.items) + ")";
    }
    std::string operator()(const List& l) const { return "[" + join_repr(l.items) + "]"; }
    std::string operator()(const Dict& d) const {
      std::string out;
      for (size_t i = 0; i < d.keys.size(); i++) out += (i ? ", " : "") + quoted(d.keys[i]) + ": " + repr_value(d.values[i]);
      return "{" + out + "}";
    }
    std::string operator()(const FunctionRef& f) const { return fmt::format("<function {}>", f->def->name); }
    std::string operator()(const ObjectRef& o) const {
      if (const SymbolicVariable* v = std::get_if<SymbolicVariable>(&o->kind)) return variable_str(*v);
      return fmt::format("<{} object>", object_type(*o));
    }
    std::string operator()(const RangeValue& r) const {
      return r.step == 1 ? fmt::format("range({}, {})", r.start, r.stop)
                         : fmt::format("range({}, {}, {})", r.start, r.stop, r.step);
    }
  } visitor;
  return std::visit(visitor, static_cast<const ValueVariant&>(v));
}

}  // namespace tr::repl
