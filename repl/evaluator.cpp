#include "repl/symbolic_variable.h"
#include "repl/evaluator.h"

#include "repl/builtins.h"
#include "repl/convert.h"
#include "repl/dict_methods.h"
#include "repl/iteration.h"
#include "repl/indexing.h"
#include "repl/methods.h"
#include "repl/nn.h"
#include "repl/operators.h"
#include "repl/session.h"
#include "repl/source_error.h"
#include "repl/suggest.h"

namespace tr::repl {
namespace {

Value literal_value(const Literal& lit) {
  return std::visit(
      [](const auto& v) -> Value {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, NoneLiteral>) {
          return NoneValue{};
        } else {
          return v;
        }
      },
      lit.value);
}

}  // namespace

std::vector<std::string> Evaluator::known_names() const { return known_names_with(session_.variable_names()); }

std::vector<std::string> Evaluator::known_names_with(std::vector<std::string> variables) {
  std::vector<std::string> out = std::move(variables);
  out.insert(out.end(), builtin_names().begin(), builtin_names().end());
  out.insert(out.end(), dtype_names().begin(), dtype_names().end());
  out.emplace_back(kDTypes);
  out.emplace_back(kNn);
  out.emplace_back(kHelp);
  return out;
}

bool Evaluator::is_namespace(const Expr& e, std::string_view ns) const {
  const Name* n = std::get_if<Name>(&e.node);
  return n && n->id == ns && !session_.lookup(ns, e.span);
}

Value Evaluator::eval(const Expr& e) const {
  struct Visitor {
    const Evaluator& ev;
    Span span;
    Value operator()(const Literal& n) const { return literal_value(n); }
    Value operator()(const EllipsisLiteral&) const {
      fail_at(span, "syntax", "'...' can only be used inside a subscript");
    }
    Value operator()(const Name& n) const { return ev.name(n.id, span); }
    Value operator()(const Unary& n) const {
      const Value v = ev.eval(*n.operand);
      return at(span, [&] { return apply_unary(n.op, v); });
    }
    Value operator()(const Binary& n) const {
      const Value l = ev.eval(*n.lhs);
      const Value r = ev.eval(*n.rhs);
      return at(span, [&] { return apply_binary(n.op, l, r); });
    }
    Value operator()(const Logic& n) const { return ev.logic(n, span); }
    Value operator()(const Comparison& n) const { return ev.comparison(n); }
    Value operator()(const Call& n) const { return ev.call(n, span); }
    Value operator()(const Attribute& n) const { return ev.attribute(n, span); }
    Value operator()(const Subscript& n) const { return ev.subscript(n, span); }
    Value operator()(const SliceExpr&) const { fail_at(span, "syntax", "a slice can only be used inside a subscript"); }
    Value operator()(const ListExpr& n) const { return List{ev.items(n.items)}; }
    Value operator()(const TupleExpr& n) const { return Tuple{ev.items(n.items)}; }
    Value operator()(const Starred&) const {
      fail_at(span, "syntax", "a starred expression spreads a call's arguments or a list's or tuple's items only");
    }
    Value operator()(const DictExpr& n) const {
      Dict out;
      for (const DictEntry& d : n.entries) {
        const Value key = ev.eval(*d.key);
        const std::string* k = key.get_if<std::string>();
        if (!k) fail_at(d.key->span, "type", "dict keys are strings here, not {}", type_name(key));
        dict_set(out, *k, ev.eval(*d.value));
      }
      return out;
    }
    Value operator()(const IfExpr& n) const {
      const Value test = ev.eval(*n.test);
      return at(n.test->span, [&] { return truthy(test); }) ? ev.eval(*n.body) : ev.eval(*n.orelse);
    }
    Value operator()(const Comprehension& n) const { return ev.session_.comprehension(n); }
    Value operator()(const Lambda& n) const { return ev.session_.make_function(n.def); }
    Value operator()(const Help& n) const { return ev.print_help(*n.target, span); }
  };
  return std::visit(Visitor{*this, e.span}, e.node);
}

Value Evaluator::name(const std::string& id, Span span) const {
  if (const Value* v = session_.lookup(id, span)) return *v;
  if (const std::optional<DType> t = parse_dtype(id)) return *t;
  if (is_builtin(id)) fail_at(span, "type", "'{}' is a function; call it: {}(...)", id, id);
  if (id == kHelp) fail_at(span, "type", "'help' is a function; call it: help(x.sum), or write x.sum?");
  if (id == kDTypes) fail_at(span, "type", "'dtypes' holds the dtypes; name one: dtypes.float32");
  if (id == kNn) fail_at(span, "type", "'nn' holds tinygrad's layers and optimizers; name one: nn.Linear(2, 3)");
  fail_at(span, "name", "name '{}' is not defined{}", id, did_you_mean(id, known_names()));
}

Value Evaluator::logic(const Logic& l, Span span) const {
  // Python's short circuit: the deciding operand itself is the result
  Value lhs = eval(*l.lhs);
  const bool decided = at(span, [&] { return truthy(lhs); }) == (l.op == LogicOp::Or);
  return decided ? lhs : eval(*l.rhs);
}

Value Evaluator::comparison(const Comparison& c) const {
  // a < b < c is (a < b) and (b < c), each operand evaluated once
  Value lhs = eval(*c.first);
  Value result;
  for (const CompareLink& link : c.links) {
    Value rhs = eval(*link.rhs);
    result = at(link.span, [&] { return apply_compare(link.op, lhs, rhs); });
    if (&link == &c.links.back() || !at(link.span, [&] { return truthy(result); })) return result;
    lhs = std::move(rhs);
  }
  return result;
}

std::vector<Value> Evaluator::items(const std::vector<ExprRef>& exprs) const {
  std::vector<Value> out;
  for (const ExprRef& e : exprs) {
    if (const Starred* st = std::get_if<Starred>(&e->node)) {
      const std::vector<Value> spread = iteration_items(eval(*st->value), st->value->span);
      out.insert(out.end(), spread.begin(), spread.end());
    } else {
      out.push_back(eval(*e));
    }
  }
  return out;
}

CallArgs Evaluator::arguments(const Call& c, std::string name, Span span) const {
  CallArgs call{std::move(name), span, {}, {}};
  for (const ExprRef& a : c.args) {
    const Starred* st = std::get_if<Starred>(&a->node);
    if (!st) {
      call.args.push_back(Arg{eval(*a), a->span, ""});
      continue;
    }
    for (Value& v : iteration_items(eval(*st->value), st->value->span)) call.args.push_back(Arg{std::move(v), a->span, ""});
  }
  const auto add_keyword = [&](const std::string& key, Value v, Span at_span) {
    for (const KeywordValue& k : call.keywords)
      if (k.name == key) fail_at(at_span, "type", "{}() got multiple values for keyword argument '{}'", call.name, key);
    call.keywords.push_back(KeywordValue{key, std::move(v), at_span});
  };
  for (const KeywordArg& k : c.keywords) {
    if (!k.name.empty()) {
      add_keyword(k.name, eval(*k.value), k.span);
      continue;
    }
    const Value mapping = eval(*k.value);
    const Dict* d = mapping.get_if<Dict>();
    if (!d) fail_at(k.value->span, "type", "argument after ** must be a dict, not {}", type_name(mapping));
    for (size_t i = 0; i < d->keys.size(); i++) add_keyword(d->keys[i], d->values[i], k.value->span);
  }
  return call;
}

Value Evaluator::call(const Call& c, Span span) const {
  if (const Name* n = std::get_if<Name>(&c.callee->node)) {
    if (const Value* v = session_.lookup(n->id, span)) {
      const Value keep = *v;  // the call may rebind the name
      return call_value(keep, c, n->id, span);
    }
    if (n->id == kHelp) return help_call(c, span);
    if (!is_builtin(n->id)) {
      if (parse_dtype(n->id)) fail_at(span, "type", "a dtype is not callable; to convert, use x.cast({})", n->id);
      fail_at(span, "name", "name '{}' is not defined{}", n->id, did_you_mean(n->id, known_names()));
    }
    const CallArgs args = arguments(c, n->id, span);
    return at(span, [&] { return call_builtin(args, session_.print()); });
  }
  const Attribute* a = std::get_if<Attribute>(&c.callee->node);
  if (!a) return call_value(eval(*c.callee), c, "", span);
  if (const std::optional<std::string> dotted = nn_name(*c.callee)) {
    if (!is_nn_function(*dotted)) attribute(*a, span);  // says what nn has
    const CallArgs args = arguments(c, dotted->substr(dotted->rfind('.') + 1), span);
    return at(span, [&] { return call_nn(*dotted, args); });
  }
  if (is_namespace(*a->object, kTensor) && is_builtin(a->name)) {
    const CallArgs args = arguments(c, a->name, span);
    return at(span, [&] { return call_builtin(args, session_.print()); });
  }
  if (is_namespace(*a->object, kTensor)) not_in_tinygrad(a->name, span);
  const Value object = eval(*a->object);
  if (const ObjectRef* o = object.get_if<ObjectRef>()) {
    const CallArgs args = arguments(c, a->name, span);
    return at(span, [&] { return call_object_method(*o, args); });
  }
  if (const Dict* d = object.get_if<Dict>()) return call_dict_method(*d, arguments(c, a->name, span));
  const Tensor* self = object.get_if<Tensor>();
  if (!self) fail_at(span, "name", "'{}' object has no method '{}'", type_name(object), a->name);
  if (is_attribute(a->name)) fail_at(span, "type", "'{}' is an attribute, not a method: write x.{}", a->name, a->name);
  if (!is_method(a->name)) {
    fail_at(span, "name", "'Tensor' object has no method '{}'{}", a->name, did_you_mean(a->name, member_names()));
  }
  const CallArgs args = arguments(c, a->name, span);
  return at(span, [&] { return call_method(*self, args, session_.print()); });
}

Value Evaluator::call_value(const Value& callee, const Call& c, const std::string& name, Span span) const {
  if (const FunctionRef* f = callee.get_if<FunctionRef>()) return session_.call(**f, arguments(c, (*f)->def->name, span));
  if (const ObjectRef* o = callee.get_if<ObjectRef>()) {
    const CallArgs args = arguments(c, name, span);
    return at(span, [&] { return call_object(*o, args); });
  }
  fail_at(span, "type", "'{}' object is not callable", type_name(callee));
}

std::optional<std::string> Evaluator::nn_name(const Expr& e) const {
  if (const Attribute* a = std::get_if<Attribute>(&e.node)) {
    const std::optional<std::string> object = nn_name(*a->object);
    return object ? std::optional<std::string>(*object + "." + a->name) : std::nullopt;
  }
  return is_namespace(e, kNn) ? std::optional<std::string>(std::string(kNn)) : std::nullopt;
}

Value Evaluator::attribute(const Attribute& a, Span span) const {
  if (is_namespace(*a.object, kDTypes)) {
    if (const std::optional<DType> t = parse_dtype(a.name)) return *t;
    fail_at(span, "name", "dtypes has no dtype '{}'{}", a.name, did_you_mean(a.name, dtype_names()));
  }
  if (is_namespace(*a.object, kTensor) && is_builtin(a.name)) {
    fail_at(span, "type", "Tensor.{} is a function; call it: Tensor.{}(...)", a.name, a.name);
  }
  if (is_namespace(*a.object, kTensor)) not_in_tinygrad(a.name, span);
  if (const std::optional<std::string> dotted = nn_name(*a.object)) {
    if (is_nn_function(*dotted + "." + a.name)) fail_at(span, "type", "{}.{} is a function; call it", *dotted, a.name);
    if (*dotted == kNn && (a.name == "optim" || a.name == "state")) {
      fail_at(span, "type", "nn.{} holds functions; call one, e.g. nn.optim.Adam(params)", a.name);
    }
    fail_at(span, "name", "{} has no '{}' (it has Linear, Conv2d, BatchNorm, LayerNorm, Embedding, optim.SGD, optim.Adam, optim.AdamW, state.get_parameters)",
            *dotted, a.name);
  }
  const Value object = eval(*a.object);
  if (const ObjectRef* o = object.get_if<ObjectRef>()) return object_attribute(*o, a.name, span);
  const Tensor* self = object.get_if<Tensor>();
  if (!self) fail_at(span, "name", "'{}' object has no attribute '{}'", type_name(object), a.name);
  if (is_attribute(a.name)) return at(span, [&] { return get_attribute(*self, a.name); });
  if (is_method(a.name)) fail_at(span, "type", "'{}' is a method; call it: x.{}()", a.name, a.name);
  fail_at(span, "name", "'Tensor' object has no attribute '{}'{}", a.name, did_you_mean(a.name, member_names()));
}

void Evaluator::not_in_tinygrad(const std::string& name, Span span) {
  if (name == "train" || name == "training" || name == "test") {
    fail_at(span, "name", "Tensor.{} is not in tinygrad 0.14: training mode is the TRAINING context variable, set "
                          "with `with Context(TRAINING=1):` or @Context(TRAINING=1) on a def", name);
  }
}

Value Evaluator::subscript(const Subscript& s, Span span) const { return subscript_value(eval(*s.object), index_items(s), span); }

std::vector<IndexItem> Evaluator::index_items(const Subscript& s) const {
  std::vector<IndexItem> items;
  for (const ExprRef& e : s.indices) {
    if (const SliceExpr* sl = std::get_if<SliceExpr>(&e->node)) {
      tr::ExprRef stop_var;
      const auto bound = [&](const ExprRef& part) -> std::optional<int64_t> {
        if (!part) return std::nullopt;
        const Value v = eval(*part);
        if (v.is<NoneValue>()) return std::nullopt;
        if (const SymbolicVariable* var = variable_of(v)) {
          if (part != sl->stop) fail_at(part->span, "value", "a Variable can only be a slice's stop, as in x[:n]");
          stop_var = var->size;
          return bound_value(Arg{v, part->span, "the slice's stop"}, *var);
        }
        if (!v.is<int64_t>()) fail_at(part->span, "type", "slice bounds must be ints or None, not {}", type_name(v));
        return std::get<int64_t>(v);
      };
      const Slice slice{bound(sl->start), bound(sl->stop), bound(sl->step)};
      if (stop_var && (slice.start.value_or(0) != 0 || slice.step.value_or(1) != 1))
        fail_at(e->span, "value", "a slice with a Variable stop must start at 0 with step 1, as in x[:n]");
      items.push_back(IndexItem{slice, e->span, stop_var});
    } else if (std::holds_alternative<EllipsisLiteral>(e->node)) {
      items.push_back(IndexItem{Ellipsis{}, e->span});
    } else {
      items.push_back(IndexItem{eval(*e), e->span});
    }
  }
  return items;
}

}  // namespace tr::repl
