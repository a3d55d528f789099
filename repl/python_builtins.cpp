#include "repl/python_builtins.h"

#include <cmath>
#include <optional>

#include "repl/convert.h"
#include "repl/iteration.h"
#include "repl/operators.h"
#include "repl/source_error.h"
#include "repl/value_format.h"

namespace tr::repl {
namespace {


// A one-element tensor reads as its number, as Python's int(t) and float(t) read it.
ConstValue number_of(const Arg& a, std::string_view fn) {
  if (const Tensor* t = a.value.get_if<Tensor>()) {
    if (t->numel() != 1) {
      fail_at(a.span, "type", "{}() of a tensor needs one element, not shape {}", fn, shape_str(t->shape()));
    }
    return at(a.span, [&] { return t->item(); });
  }
  if (const std::string* s = a.value.get_if<std::string>()) {
    char* end = nullptr;
    const double d = std::strtod(s->c_str(), &end);
    if (s->empty() || *end != '\0') fail_at(a.span, "value", "could not convert string to a number: '{}'", *s);
    return d;
  }
  return to_number(a);
}

std::vector<Value> items_of(const Arg& a) { return iteration_items(a.value, a.span); }

// min() and max(): of one sequence, or of two or more arguments, by Python's comparison.
Value extreme(const CallArgs& call, CompareOp better) {
  const Bound b = bind(call, {{"values", kRest}});
  if (b.rest().empty()) fail_at(call.span, "type", "{}() expected at least 1 argument, got 0", call.name);
  std::optional<Value> best;
  const auto consider = [&](const Value& v) {
    if (!best || at(call.span, [&] { return truthy(apply_compare(better, v, *best)); })) best = v;
    return true;
  };
  if (b.rest().size() == 1) {
    for_each_item(b.rest()[0].value, b.rest()[0].span, consider);
  } else {
    for (const Arg& a : b.rest()) consider(a.value);
  }
  if (!best) fail_at(call.span, "value", "{}() arg is an empty sequence", call.name);
  return *best;
}

}  // namespace

Value range_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"start", kRequired}, {"stop"}, {"step"}});
  const int64_t start = b.find("stop") ? to_int(b["start"]) : 0;
  const int64_t stop = to_int(b.find("stop") ? b["stop"] : b["start"]);
  const int64_t step = int_or(b, "step", 1);
  return at(step == 0 ? b["step"].span : call.span, [&] { return make_range(start, stop, step); });
}

Value len_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"obj", kRequired}});
  const Value& v = b["obj"].value;
  if (const std::vector<Value>* items = sequence_items(v)) return static_cast<int64_t>(items->size());
  if (const RangeValue* r = v.get_if<RangeValue>()) return r->size();
  if (const std::string* s = v.get_if<std::string>()) return static_cast<int64_t>(s->size());
  if (const Dict* d = v.get_if<Dict>()) return static_cast<int64_t>(d->keys.size());
  if (const Tensor* t = v.get_if<Tensor>()) {
    if (t->ndim() == 0) fail_at(b["obj"].span, "type", "len() of a 0-d tensor");
    return t->shape()[0];
  }
  fail_at(b["obj"].span, "type", "object of type '{}' has no len()", type_name(v));
}

Value int_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"x"}});
  if (!b.find("x")) return int64_t{0};
  const ConstValue c = number_of(b["x"], "int");
  if (const double* d = std::get_if<double>(&c)) {
    if (!std::isfinite(*d) || std::fabs(*d) >= 9.2e18) fail_at(b["x"].span, "value", "cannot convert {} to an int", *d);
    return static_cast<int64_t>(std::trunc(*d));
  }
  if (const bool* v = std::get_if<bool>(&c)) return int64_t{*v};
  return std::get<int64_t>(c);
}

Value float_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"x"}});
  if (!b.find("x")) return 0.0;
  return std::visit([](auto x) { return static_cast<double>(x); }, number_of(b["x"], "float"));
}

Value str_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"object"}});
  if (!b.find("object")) return std::string();
  return at(b["object"].span, [&] { return str_value(b["object"].value); });
}

Value abs_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"x", kRequired}});
  const Value& v = b["x"].value;
  if (const Tensor* t = v.get_if<Tensor>()) return t->abs();
  return at(b["x"].span, [&] {
    const bool negative = truthy(apply_compare(CompareOp::Lt, v, int64_t{0}));
    return negative ? apply_unary(UnaryOp::Neg, v) : apply_unary(UnaryOp::Pos, v);
  });
}

Value min_fn(const CallArgs& call, const PrintSink&) { return extreme(call, CompareOp::Lt); }
Value max_fn(const CallArgs& call, const PrintSink&) { return extreme(call, CompareOp::Gt); }

Value round_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"number", kRequired}, {"ndigits"}});
  const Value& v = b["number"].value;
  if (const Tensor* t = v.get_if<Tensor>()) return t->round();
  const double x = to_float(b["number"]);
  if (!b.find("ndigits")) {
    if (v.is<int64_t>()) return v;
    if (!std::isfinite(x)) fail_at(b["number"].span, "value", "cannot round {} to an int", x);
    return static_cast<int64_t>(std::nearbyint(x));  // half to even, as Python's round
  }
  const double scale = std::pow(10.0, static_cast<double>(to_int(b["ndigits"])));
  return std::nearbyint(x * scale) / scale;
}

Value list_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"iterable"}});
  if (!b.find("iterable")) return List{};
  return List{items_of(b["iterable"])};
}

Value tuple_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"iterable"}});
  if (!b.find("iterable")) return Tuple{};
  return Tuple{items_of(b["iterable"])};
}

}  // namespace tr::repl
