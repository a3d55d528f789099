#include "repl/symbolic_variable.h"

#include <fmt/format.h>

#include "core/lazy/symbolic_shape.h"
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
  return std::make_shared<Object>(Object{SymbolicVariable{v, std::nullopt, v}});
}

const SymbolicVariable* variable_of(const Value& v) {
  const ObjectRef* o = v.get_if<ObjectRef>();
  return o ? std::get_if<SymbolicVariable>(&(*o)->kind) : nullptr;
}

int64_t bound_value(const Arg& a, const SymbolicVariable& v) {
  if (!v.value) fail_at(a.span, "value", "Variable {} is not bound: give it a value with {}.bind(v)", v.var->name, v.var->name);
  return evaluate(v.size, {{v.var->name, *v.value}});
}

Value variable_arithmetic(BinaryOp op, const Value& a, const Value& b) {
  const SymbolicVariable* v = variable_of(a) ? variable_of(a) : variable_of(b);
  const Value& other = variable_of(a) ? b : a;
  const int64_t* k = other.get_if<int64_t>();
  const bool by_int = k && (op == BinaryOp::Add || op == BinaryOp::Mul || (op == BinaryOp::Sub && variable_of(a)));
  if (!by_int)
    fail("type", "unsupported operand types for {}: '{}' and '{}' (a Variable takes + and * by an int, and - an int, "
                 "as a size that grows with it)", spelling(op), type_name(a), type_name(b));
  const tr::ExprRef size = op == BinaryOp::Mul ? scaled_size(v->size, *k, 0)
                                               : scaled_size(v->size, 1, op == BinaryOp::Sub ? -*k : *k);
  return std::make_shared<Object>(Object{SymbolicVariable{v->var, v->value, size}});
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
    out.push_back(s ? s->size : nullptr);
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
    return evaluate(v.size, {{v.var->name, *v.value}});
  }
  if (name == "expr") return same_expr(v.size, v.var) ? v.var->name : render(v.size);
  if (name == "min") return v.size->min;
  if (name == "max") return v.size->max;
  fail_at(span, "name", "'Variable' object has no attribute '{}'", name);
}

Value call_variable_method(const SymbolicVariable& v, const CallArgs& call) {
  if (call.name != "bind") fail_at(call.span, "name", "'Variable' object has no method '{}'", call.name);
  if (!same_expr(v.size, v.var))
    fail_at(call.span, "value", "bind gives a Variable its value: bind {} before {}", v.var->name, render(v.size));
  const Bound b = bind(call, {{"val", ParamKind::Required}});
  const int64_t value = to_int(b["val"]);
  at(b["val"].span, [&] { check_binding(v.var, value); });
  return std::make_shared<Object>(Object{SymbolicVariable{v.var, value, v.var}});
}

std::string variable_str(const SymbolicVariable& v) {
  const std::string made = fmt::format("Variable('{}', {}, {})", v.var->name, v.var->min, v.var->max);
  const std::string var = v.value ? fmt::format("{}.bind({})", made, *v.value) : made;
  return same_expr(v.size, v.var) ? var : fmt::format("{} of {}", render(v.size), var);
}

}  // namespace tr::repl
