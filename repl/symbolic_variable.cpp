#include "repl/symbolic_variable.h"

#include <fmt/format.h>

#include "core/symbolic_shape.h"
#include "repl/convert.h"
#include "repl/nn.h"
#include "repl/source_error.h"

namespace tr::repl {

Value variable_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"name", ParamKind::Required}, {"min", ParamKind::Required}, {"max", ParamKind::Required}});
  const Arg& name = b["name"];
  const std::string* s = name.value.get_if<std::string>();
  if (!s) fail_at(name.span, "type", "{} must be a str, not {}", name.what, type_name(name.value));
  const tr::ExprRef v = at(call.span, [&] { return make_variable(*s, to_int(b["min"]), to_int(b["max"])); });
  return std::make_shared<Object>(Object{SymbolicVariable{v, std::nullopt}});
}

const SymbolicVariable* variable_of(const Value& v) {
  const ObjectRef* o = v.get_if<ObjectRef>();
  return o ? std::get_if<SymbolicVariable>(&(*o)->kind) : nullptr;
}

int64_t bound_value(const Arg& a, const SymbolicVariable& v) {
  if (!v.value) fail_at(a.span, "value", "Variable {} is not bound: give it a value with {}.bind(v)", v.var->name, v.var->name);
  return *v.value;
}

std::vector<tr::ExprRef> shape_variables(const std::vector<Arg>& args) {
  std::vector<Value> items;
  if (args.size() == 1 && sequence_items(args[0].value)) {
    items = *sequence_items(args[0].value);
  } else {
    for (const Arg& a : args) items.push_back(a.value);
  }
  std::vector<tr::ExprRef> out;
  bool any = false;
  for (const Value& v : items) {
    const SymbolicVariable* s = variable_of(v);
    out.push_back(s ? s->var : nullptr);
    any = any || s;
  }
  return any ? out : std::vector<tr::ExprRef>{};
}

Tensor with_symbolic_dims(const Tensor& t, const std::vector<Arg>& shape_args, Span span) {
  const std::vector<tr::ExprRef> sym = shape_variables(shape_args);
  if (sym.empty()) return t;
  return at(span, [&] { return t.bind_sizes(sym); });
}

Value variable_attribute(const SymbolicVariable& v, std::string_view name, Span span) {
  if (name == "val") {
    if (!v.value) fail_at(span, "value", "Variable {} is not bound: .val needs {}.bind(v) first", v.var->name, v.var->name);
    return *v.value;
  }
  if (name == "expr") return v.var->name;
  if (name == "min") return v.var->min;
  if (name == "max") return v.var->max;
  fail_at(span, "name", "'Variable' object has no attribute '{}'", name);
}

Value call_variable_method(const SymbolicVariable& v, const CallArgs& call) {
  if (call.name != "bind") fail_at(call.span, "name", "'Variable' object has no method '{}'", call.name);
  const Bound b = bind(call, {{"val", ParamKind::Required}});
  const int64_t value = to_int(b["val"]);
  at(b["val"].span, [&] { check_binding(v.var, value); });
  return std::make_shared<Object>(Object{SymbolicVariable{v.var, value}});
}

std::string variable_str(const SymbolicVariable& v) {
  const std::string made = fmt::format("Variable('{}', {}, {})", v.var->name, v.var->min, v.var->max);
  return v.value ? fmt::format("{}.bind({})", made, *v.value) : made;
}

}  // namespace tr::repl
