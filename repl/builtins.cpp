#include "repl/symbolic_variable.h"
#include "repl/builtins.h"

#include <map>

#include "core/tensor/random.h"
#include "core/realize/realize.h"
#include "core/tensor/own_buffer.h"
#include "core/tensor/random_derived.h"

#include "repl/convert.h"
#include "repl/operators.h"
#include "repl/python_builtins.h"
#include "repl/source_error.h"
#include "repl/tensor_function_builtins.h"
#include "repl/tensor_literal.h"
#include "repl/training.h"

namespace tr::repl {
namespace {

using Builtin = Value (*)(const CallArgs&, const PrintSink&);


// Creation functions share tinygrad's dtype= and device= keywords.
std::optional<DType> dtype_arg(const Bound& b) { return to_optional_dtype(b.find("dtype")); }

std::string device_arg(const Bound& b) {
  const Arg* a = b.find("device");
  return a ? to_device(*a) : "";
}

std::vector<Tensor> tensors_of(const std::vector<Arg>& args) {
  std::vector<Tensor> out;
  for (const Arg& a : args) out.push_back(to_tensor(a));
  return out;
}

Value tensor_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"data", kRequired}, {"dtype"}, {"device"}, {"requires_grad"}});
  return tensor_from_data(b["data"], dtype_arg(b), device_arg(b));
}

template <Tensor (*Make)(const Shape&, DType, const std::string&)>
Value filled(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"shape", kRest}, {"dtype"}, {"device"}, {"requires_grad"}});
  return with_symbolic_dims(Make(to_shape(b.rest()), dtype_arg(b).value_or(DType::Float32), device_arg(b)), b.rest(), call.span);
}

Value full_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"shape", kRequired}, {"fill_value", kRequired, "value"}, {"dtype"}, {"device"}, {"requires_grad"}});
  return with_symbolic_dims(Tensor::full(to_shape({b["shape"]}), to_number(b["fill_value"]), dtype_arg(b), device_arg(b)),
                            {b["shape"]}, call.span);
}

Value arange_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"start", kRequired}, {"stop"}, {"step"}, {"dtype"}, {"device"}});
  // arange(stop) counts from 0, as in Python's range
  // arange(n) of a bound Variable n: n elements, a symbolic dim
  const Arg& stop_arg = b.find("stop") ? b["stop"] : b["start"];
  if (const SymbolicVariable* v = variable_of(stop_arg.value)) {
    if (b.find("stop") || b.find("step"))
      fail_at(stop_arg.span, "value", "arange takes a Variable only as arange(n): its one argument");
    const Tensor counted = Tensor::arange(int64_t{0}, bound_value(stop_arg, *v), int64_t{1}, dtype_arg(b), device_arg(b));
    return with_symbolic_dims(counted, {stop_arg}, call.span);
  }
  const ConstValue start = b.find("stop") ? to_number(b["start"]) : ConstValue{int64_t{0}};
  const ConstValue stop = to_number(stop_arg);
  const ConstValue step = b.find("step") ? to_number(b["step"]) : ConstValue{int64_t{1}};
  return Tensor::arange(start, stop, step, dtype_arg(b), device_arg(b));
}

Value linspace_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"start", kRequired}, {"stop", kRequired}, {"steps", kRequired}, {"dtype"}, {"device"}});
  return Tensor::linspace(to_number(b["start"]), to_number(b["stop"]), to_int(b["steps"]),
                          dtype_arg(b).value_or(DType::Float32), device_arg(b));
}

Value eye_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"n", kRequired}, {"m"}, {"dtype"}, {"device"}, {"requires_grad"}});
  const std::optional<int64_t> m = b.find("m") ? std::optional<int64_t>(to_int(b["m"])) : std::nullopt;
  return Tensor::eye(to_int(b["n"]), m, dtype_arg(b).value_or(DType::Float32), device_arg(b));
}

// seed= draws a stream of the call's own; without it the session's generator advances (core/tensor/random.h).
std::optional<uint64_t> seed_arg(const Bound& b) {
  if (!b.find("seed")) return std::nullopt;
  const int64_t seed = to_int(b["seed"]);
  if (seed < 0) fail_at(b["seed"].span, "value", "{} must not be negative", b["seed"].what);
  return static_cast<uint64_t>(seed);
}

template <Tensor (*Make)(const Shape&, std::optional<uint64_t>, DType, const std::string&)>
Value random(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"shape", kRest}, {"seed"}, {"dtype"}, {"device"}, {"requires_grad"}});
  return Make(to_shape(b.rest()), seed_arg(b), dtype_arg(b).value_or(DType::Float32), device_arg(b));
}

// tinygrad's initialisers: rand and randn scaled, with their keywords.
double number_arg(const Bound& b, std::string_view name, double fallback) {
  return b.find(name) ? to_float(b[name]) : fallback;
}

Value uniform_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"shape", kRest}, {"low"}, {"high"}, {"seed"}, {"dtype"}, {"device"}, {"requires_grad"}});
  return Tensor::uniform(to_shape(b.rest()), number_arg(b, "low", 0.0), number_arg(b, "high", 1.0), seed_arg(b),
                         dtype_arg(b).value_or(DType::Float32), device_arg(b));
}

Value normal_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"shape", kRest}, {"mean"}, {"std"}, {"seed"}, {"dtype"}, {"device"}, {"requires_grad"}});
  return Tensor::normal(to_shape(b.rest()), number_arg(b, "mean", 0.0), number_arg(b, "std", 1.0), seed_arg(b),
                        dtype_arg(b).value_or(DType::Float32), device_arg(b));
}

Value randint_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"shape", kRest}, {"low"}, {"high"}, {"seed"}, {"dtype"}, {"device"}, {"requires_grad"}});
  return Tensor::randint(to_shape(b.rest()), int_or(b, "low", 0), int_or(b, "high", 10),
                         seed_arg(b), dtype_arg(b).value_or(DType::Int32), device_arg(b));
}

template <Tensor (*Make)(const Shape&, double, std::optional<uint64_t>, DType, const std::string&)>
Value kaiming(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"shape", kRest}, {"a"}, {"seed"}, {"dtype"}, {"device"}, {"requires_grad"}});
  return Make(to_shape(b.rest()), number_arg(b, "a", 0.01), seed_arg(b), dtype_arg(b).value_or(DType::Float32), device_arg(b));
}

Value randperm_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"n", kRequired}, {"dtype"}, {"seed"}, {"device"}, {"requires_grad"}});
  return randperm(to_int(b["n"]), dtype_arg(b).value_or(DType::Int32), seed_arg(b), device_arg(b));
}

Value manual_seed_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"seed", kRequired}});
  const std::optional<uint64_t> seed = seed_arg(b);
  manual_seed(*seed);
  return NoneValue{};
}

// zeros_like, ones_like and full_like all fill x's shape; only the value differs.
Value filled_like(const Bound& b, ConstValue value) { return to_tensor(b["x"]).full_like(value, dtype_arg(b)); }

Value zeros_like_fn(const CallArgs& call, const PrintSink&) {
  return filled_like(bind(call, {{"x", kRequired}, {"dtype"}}), int64_t{0});
}

Value ones_like_fn(const CallArgs& call, const PrintSink&) {
  return filled_like(bind(call, {{"x", kRequired}, {"dtype"}}), int64_t{1});
}

Value full_like_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"x", kRequired}, {"fill_value", kRequired, "value"}, {"dtype"}});
  return filled_like(b, to_number(b["fill_value"]));
}

Value where_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"condition", kRequired}, {"x", kRequired}, {"y", kRequired}});
  return select(to_tensor(b["condition"]), b["x"].value, b["y"].value);
}

template <Tensor (Tensor::*Op)(const Tensor&) const>
Value elementwise_pair(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"x", kRequired}, {"y", kRequired}});
  const auto [x, y] = tensor_operands(b["x"].value, b["y"].value, call.name);
  return (x.*Op)(y);
}

Value allclose_fn(const CallArgs& call, const PrintSink&) {
  const Bound b = bind(call, {{"a", kRequired}, {"b", kRequired}, {"rtol"}, {"atol"}});
  const auto [x, y] = tensor_operands(b["a"].value, b["b"].value, call.name);
  return allclose(x, y, number_or(b, "rtol", 1e-5), number_or(b, "atol", 1e-8));
}

// At least one tensor, given as separate arguments.
std::vector<Tensor> some_tensors(const CallArgs& call) {
  const Bound b = bind(call, {{"tensors", kRest}});
  if (b.rest().empty()) fail_at(call.span, "type", "{}() needs at least one tensor", call.name);
  return tensors_of(b.rest());
}

Value kernels_fn(const CallArgs& call, const PrintSink&) { return int64_t{count_kernels(some_tensors(call))}; }

Value compiles_fn(const CallArgs& call, const PrintSink&) {
  bind(call, {});
  return programs_built();
}

// Returns its tensors, as tinygrad's realize returns its tensor: one, or a tuple of several.
Value realize_fn(const CallArgs& call, const PrintSink&) {
  const std::vector<Tensor> xs = some_tensors(call);
  Tensor::realize_together(xs);
  if (xs.size() == 1) return xs[0];
  Tuple out;
  for (const Tensor& x : xs) out.items.emplace_back(x);
  return out;
}

Value print_fn(const CallArgs& call, const PrintSink& print) {
  const Bound b = bind(call, {{"values", kRest}});
  std::vector<Value> values;
  for (const Arg& a : b.rest()) values.push_back(a.value);
  print(make_print_event(values, call.span));
  return NoneValue{};
}

const std::map<std::string, Builtin, std::less<>>& table() {
  static const std::map<std::string, Builtin, std::less<>> t{
      {"tensor", tensor_fn},
      {"Tensor", tensor_fn},  // tinygrad's spelling: Tensor([1, 2])
      {"zeros", filled<&Tensor::zeros>},
      {"ones", filled<&Tensor::ones>},
      {"full", full_fn},
      {"arange", arange_fn},
      {"linspace", linspace_fn},
      {"eye", eye_fn},
      {"rand", random<&Tensor::rand>},
      {"randn", random<&Tensor::randn>},
      {"uniform", uniform_fn},
      {"normal", normal_fn},
      {"randint", randint_fn},
      {"glorot_uniform", random<&Tensor::glorot_uniform>},
      {"kaiming_uniform", kaiming<&Tensor::kaiming_uniform>},
      {"kaiming_normal", kaiming<&Tensor::kaiming_normal>},
      {"scaled_uniform", random<&Tensor::scaled_uniform>},
      {"empty", filled<&empty>},
      {"randperm", randperm_fn},
      {"zeros_like", zeros_like_fn},
      {"ones_like", ones_like_fn},
      {"full_like", full_like_fn},
      {"where", where_fn},
      {"maximum", elementwise_pair<&Tensor::maximum>},
      {"minimum", elementwise_pair<&Tensor::minimum>},
      {"allclose", allclose_fn},
      {"kernels", kernels_fn},
      {"compiles", compiles_fn},
      {"realize", realize_fn},
      {"manual_seed", manual_seed_fn},
      {"print", print_fn},
      {"range", range_fn},
      {"len", len_fn},
      {"int", int_fn},
      {"float", float_fn},
      {"str", str_fn},
      {"abs", abs_fn},
      {"min", min_fn},
      {"max", max_fn},
      {"round", round_fn},
      {"list", list_fn},
      {"tuple", tuple_fn},
      // functions of several tensors (repl/tensor_function_builtins.cpp)
      {"stack", stack_fn},
      {"einsum", einsum_fn},
      {"meshgrid", meshgrid_fn},
      // tinygrad's Context(TRAINING=1), for `with` and decorators
      {"Context", context_fn},
      {"Variable", variable_fn},
  };
  return t;
}

}  // namespace

bool is_builtin(std::string_view name) { return table().contains(name); }

const std::vector<std::string>& builtin_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, fn] : table()) out.push_back(name);
    return out;
  }();
  return names;
}

Value call_builtin(const CallArgs& call, const PrintSink& print) {
  return table().find(call.name)->second(call, print);
}

}  // namespace tr::repl
