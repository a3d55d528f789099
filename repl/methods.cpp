#include "repl/symbolic_variable.h"
#include "repl/methods.h"

#include <algorithm>
#include <tuple>

#include "repl/convert.h"
#include "repl/method_table.h"
#include "repl/operators.h"
#include "repl/source_error.h"

namespace tr::repl {
namespace {

using Table = MethodTable;

bool keepdim_arg(const Bound& b) { return flag_or(b, "keepdim", false); }

// A tuple of one (a, b) pair or None per dim, as shrink and pad take them.
std::vector<std::optional<Range>> pairs_of(const Arg& a) {
  const std::vector<Value>* items = sequence_items(a.value);
  if (!items) fail_at(a.span, "type", "{} must be a tuple, not {}", a.what, type_name(a.value));
  std::vector<std::optional<Range>> out;
  for (const Value& p : *items) {
    if (p.is<NoneValue>()) {
      out.emplace_back();
      continue;
    }
    const std::vector<int64_t> pair = to_ints(Arg{p, a.span, a.what});
    if (pair.size() != 2) fail_at(a.span, "value", "{} holds a pair of {} values", a.what, pair.size());
    out.emplace_back(Range{pair[0], pair[1]});
  }
  return out;
}

// pad's argument in either of tinygrad's forms: flat ints, last dim first as in torch
// ((left, right, top, bottom)), or one (before, after) pair or None per dim.
std::vector<Range> padding_of(const Arg& a, int ndim) {
  const std::vector<Value>* items = sequence_items(a.value);
  const bool flat = items && std::all_of(items->begin(), items->end(), [](const Value& v) { return v.is<int64_t>(); });
  std::vector<Range> out(static_cast<size_t>(ndim), Range{0, 0});
  if (flat) {
    if (items->size() % 2 != 0 || static_cast<int>(items->size()) > 2 * ndim) {
      fail_at(a.span, "value", "{} as flat ints needs an even count, at most {} for {} dims", a.what, 2 * ndim, ndim);
    }
    for (size_t i = 0; i < items->size() / 2; i++) {
      out[static_cast<size_t>(ndim) - 1 - i] = {std::get<int64_t>((*items)[2 * i]),
                                                std::get<int64_t>((*items)[2 * i + 1])};
    }
    return out;
  }
  const std::vector<std::optional<Range>> pairs = pairs_of(a);
  if (static_cast<int>(pairs.size()) != ndim) {
    fail_at(a.span, "value", "{} needs one (before, after) pair or None for each of the {} dims", a.what, ndim);
  }
  for (size_t i = 0; i < pairs.size(); i++) out[i] = pairs[i].value_or(Range{0, 0});
  return out;
}

// An element as a .tg value: a uint64 from 2^63 up has no 64-bit signed int to be, and is refused
// rather than read back negative.
Value element_value(const ConstValue& c, DType t) {
  if (t == DType::UInt64 && as_int(c) < 0)
    fail("value", "the uint64 value {} does not fit the 64-bit signed ints of .tg (print the tensor to see it)",
         static_cast<uint64_t>(as_int(c)));
  return from_const(c);
}

Value to_list(const HostArray& a, size_t axis, int64_t& next) {
  if (axis == a.shape.size()) return element_value(a.values[static_cast<size_t>(next++)], a.dtype);
  List out;
  for (int64_t i = 0; i < a.shape[axis]; i++) out.items.push_back(to_list(a, axis + 1, next));
  return out;
}

using Unary = Tensor (Tensor::*)() const;
using Binary = Tensor (Tensor::*)(const Tensor&) const;
using Reduce = Tensor (Tensor::*)(const Axes&, bool) const;
using Spread = Tensor (Tensor::*)(const Axes&, bool, double) const;
using ArgReduce = Tensor (Tensor::*)(std::optional<int>, bool) const;
using Softmax = Tensor (Tensor::*)(int, std::optional<DType>) const;
using AccReduce = Tensor (Tensor::*)(const Axes&, bool, DType) const;

// Methods without arguments: the element-wise unary ops, and contiguous().
void add_argless(Table& t) {
  const std::pair<const char*, Unary> ops[] = {
      {"neg", &Tensor::neg},
      {"exp", &Tensor::exp},
      {"exp2", &Tensor::exp2},
      {"log", &Tensor::log},
      {"log2", &Tensor::log2},
      {"sqrt", &Tensor::sqrt},
      {"rsqrt", &Tensor::rsqrt},
      {"sin", &Tensor::sin},
      {"cos", &Tensor::cos},
      {"tan", &Tensor::tan},
      {"relu", &Tensor::relu},
      {"sigmoid", &Tensor::sigmoid},
      {"tanh", &Tensor::tanh},
      {"silu", &Tensor::silu},
      {"abs", &Tensor::abs},
      {"sign", &Tensor::sign},
      {"reciprocal", &Tensor::reciprocal},
      {"square", &Tensor::square},
      {"floor", &Tensor::floor},
      {"ceil", &Tensor::ceil},
      {"trunc", &Tensor::trunc},
      {"round", &Tensor::round},
      {"logical_not", &Tensor::logical_not},
      {"contiguous", &Tensor::contiguous},
  };
  for (const auto& [name, op] : ops) {
    t[name] = [op = op](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      bind(call, {});
      return (x.*op)();
    };
  }
}

void add_binary(Table& t) {
  const std::pair<const char*, Binary> ops[] = {
      {"add", &Tensor::add}, {"sub", &Tensor::sub},         {"mul", &Tensor::mul},
      {"maximum", &Tensor::maximum}, {"minimum", &Tensor::minimum}, {"eq", &Tensor::eq},
      {"ne", &Tensor::ne},   {"lt", &Tensor::lt},           {"le", &Tensor::le},           {"gt", &Tensor::gt},
      {"ge", &Tensor::ge},   {"dot", &Tensor::dot},         {"matmul", &Tensor::matmul},
  };
  for (const auto& [name, op] : ops) {
    t[name] = [op = op](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      const Bound b = bind(call, {{"x", kRequired}});
      const auto [l, r] = tensor_operands(x, b["x"].value, call.name);
      return (l.*op)(r);
    };
  }
  t["pow"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return power(x, bind(call, {{"x", kRequired}})["x"].value);
  };
}

void add_casts(Table& t) {
  const std::pair<const char*, DType> casts[] = {{"float", DType::Float32},  {"half", DType::Float16},
                                                 {"double", DType::Float64}, {"int", DType::Int32},
                                                 {"long", DType::Int64},     {"bool", DType::Bool},
                                                 {"short", DType::Int16},    {"bfloat16", DType::BFloat16}};
  for (const auto& [name, dtype] : casts) {
    t[name] = [dtype = dtype](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      bind(call, {});
      return x.cast(dtype);
    };
  }
  t["cast"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.cast(to_dtype(bind(call, {{"dtype", kRequired}})["dtype"]));
  };
  t["bitcast"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.bitcast(to_dtype(bind(call, {{"dtype", kRequired}})["dtype"]));
  };
}

void add_reductions(Table& t) {
  const std::pair<const char*, Reduce> reduces[] = {{"max", &Tensor::max},
                                                    {"min", &Tensor::min},   {"mean", &Tensor::mean},
                                                    {"logsumexp", &Tensor::logsumexp}};
  for (const auto& [name, op] : reduces) {
    t[name] = [op = op](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      const Bound b = bind(call, {{"axis"}, {"keepdim"}});
      return (x.*op)(to_axes(b.find("axis")), keepdim_arg(b));
    };
  }
  // sum and prod take tinygrad's dtype=: the accumulation dtype, which the result keeps
  const std::tuple<const char*, Reduce, AccReduce> acc_reduces[] = {{"sum", &Tensor::sum, &Tensor::sum},
                                                                    {"prod", &Tensor::prod, &Tensor::prod}};
  for (const auto& [name, op, acc_op] : acc_reduces) {
    t[name] = [op = op, acc_op = acc_op](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      const Bound b = bind(call, {{"axis"}, {"keepdim"}, {"dtype"}});
      const std::optional<DType> acc = to_optional_dtype(b.find("dtype"));
      return acc ? (x.*acc_op)(to_axes(b.find("axis")), keepdim_arg(b), *acc) : (x.*op)(to_axes(b.find("axis")), keepdim_arg(b));
    };
  }
  const std::pair<const char*, Spread> spreads[] = {{"var", &Tensor::var}, {"std", &Tensor::std}};
  for (const auto& [name, op] : spreads) {
    t[name] = [op = op](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      const Bound b = bind(call, {{"axis"}, {"keepdim"}, {"correction"}});
      return (x.*op)(to_axes(b.find("axis")), keepdim_arg(b), number_or(b, "correction", 1.0));
    };
  }
  const std::pair<const char*, ArgReduce> args[] = {{"argmax", &Tensor::argmax}, {"argmin", &Tensor::argmin}};
  for (const auto& [name, op] : args) {
    t[name] = [op = op](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      const Bound b = bind(call, {{"axis"}, {"keepdim"}});
      return (x.*op)(optional_dim(b, "axis"), keepdim_arg(b));
    };
  }
  const std::pair<const char*, Softmax> softmaxes[] = {{"softmax", &Tensor::softmax},
                                                       {"log_softmax", &Tensor::log_softmax}};
  for (const auto& [name, op] : softmaxes) {
    t[name] = [op = op](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      const Bound b = bind(call, {{"axis"}, {"dtype"}});
      return (x.*op)(dim_or(b, "axis", -1), to_optional_dtype(b.find("dtype")));
    };
  }
}

void add_movement(Table& t) {
  const auto reshape = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"shape", kRest}});
    return with_symbolic_dims(x.reshape(to_shape(b.rest(), true)), b.rest(), call.span);
  };
  t["reshape"] = reshape;
  t["view"] = reshape;
  t["expand"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.expand(to_shape(bind(call, {{"shape", kRest}}).rest(), true));
  };
  t["permute"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.permute(to_dims(bind(call, {{"order", kRest}}).rest()));
  };
  t["flip"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.flip(to_dims(bind(call, {{"axis", kRest}}).rest()));
  };
  t["repeat"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.repeat(to_shape(bind(call, {{"repeats", kRest}}).rest()));
  };
  t["pad"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"padding", kRequired}, {"mode"}, {"value"}});
    return tr::pad(x, padding_of(b["padding"], x.ndim()), to_pad_mode(b.find("mode")),
                   b.find("value") ? to_number(b["value"]) : ConstValue{int64_t{0}});
  };
  t["shrink"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.shrink(pairs_of(bind(call, {{"arg", kRequired}})["arg"]));
  };
  t["transpose"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"dim0", ParamKind::Optional, "a"}, {"dim1", ParamKind::Optional, "b"}});
    return x.transpose(dim_or(b, "dim0", 1), dim_or(b, "dim1", 0));
  };
  t["flatten"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"start_dim"}, {"end_dim"}});
    return x.flatten(dim_or(b, "start_dim", 0), dim_or(b, "end_dim", -1));
  };
  t["unsqueeze"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.unsqueeze(to_dim(bind(call, {{"dim", kRequired}})["dim"]));
  };
  t["squeeze"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.squeeze(optional_dim(bind(call, {{"dim"}}), "dim"));
  };
  t["cat"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"args", kRest}, {"dim"}});
    std::vector<Tensor> others;
    for (const Arg& a : b.rest()) others.push_back(to_tensor(a));
    return x.cat(others, dim_or(b, "dim", 0));
  };
  t["where"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"x", kRequired}, {"y", kRequired}});
    return select(x, b["x"].value, b["y"].value);
  };
}

void add_control(Table& t) {
  // x.realize(*others), as tinygrad's: x and the others in one schedule (an optimizer's
  // loss.realize(*opt.schedule_step()) is one training step)
  t["realize"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"lst", kRest}});
    std::vector<Tensor> all{x};
    for (const Arg& a : b.rest()) all.push_back(to_tensor(a));
    Tensor::realize_together(all);
    return x;
  };
  t["to"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.to(to_device(bind(call, {{"device", kRequired}})["device"]));
  };
  t["shard"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"devices", kRequired}, {"axis"}});
    const Arg* axis = b.find("axis");
    return x.shard(to_devices(b["devices"]), axis && !axis->value.is<NoneValue>() ? std::optional<int>(to_dim(*axis)) : std::nullopt);
  };
  // numpy's array is the values alone: a realized leaf, which prints as numpy prints the array
  t["numpy"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {});
    return x.detach();
  };
  t["item"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {});
    return element_value(x.item(), x.dtype());
  };
  t["tolist"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {});
    int64_t next = 0;
    return to_list(fetch(x), 0, next);
  };
  t["numel"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {});
    return x.numel();
  };
}

// tinygrad 0.14's autograd: backward() fills .grad, gradient() returns the gradients, detach() cuts.
void add_gradients(Table& t) {
  t["backward"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"gradient"}});
    x.backward(b.find("gradient") ? std::optional<Tensor>(to_tensor(b["gradient"])) : std::nullopt);
    return x;
  };
  t["gradient"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"targets", kRest}, {"gradient"}});
    std::vector<Tensor> targets;
    for (const Arg& a : b.rest()) targets.push_back(to_tensor(a));
    if (targets.empty()) fail_at(call.span, "type", "gradient() needs at least one tensor to differentiate by");
    List out;
    for (const Tensor& g : x.gradient(targets, b.find("gradient") ? std::optional<Tensor>(to_tensor(b["gradient"]))
                                                                   : std::nullopt))
      out.items.emplace_back(g);
    return out;
  };
  t["detach"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {});
    return x.detach();
  };
  t["assign"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"x", kRequired}});
    const Value& v = b["x"].value;
    x.assign(v.is<Tensor>() ? std::get<Tensor>(v) : Tensor::scalar_like(x, to_number(b["x"])).expand(x.shape()));
    return x;
  };
  // accepted for programs written for older tinygrad; every float tensor gets a gradient here
  t["requires_grad_"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {{"requires_grad"}});
    return x;
  };
}

const Table& table() {
  static const Table t = [] {
    Table out;
    add_gradients(out);
    add_nn_methods(out);
    add_argless(out);
    add_binary(out);
    add_casts(out);
    add_reductions(out);
    add_movement(out);
    add_control(out);
    add_tensor_function_methods(out);
    return out;
  }();
  return t;
}

constexpr std::string_view kAttributes[] = {"shape", "dtype", "device", "ndim", "T", "grad"};

}  // namespace

bool is_method(std::string_view name) { return table().contains(name); }

bool is_attribute(std::string_view name) {
  return std::find(std::begin(kAttributes), std::end(kAttributes), name) != std::end(kAttributes);
}

const std::vector<std::string>& member_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out(std::begin(kAttributes), std::end(kAttributes));
    for (const auto& [name, fn] : table()) out.push_back(name);
    return out;
  }();
  return names;
}

Value call_method(const Tensor& self, const CallArgs& call, const PrintSink& print) {
  return table().find(call.name)->second(self, call, print);
}

Value get_attribute(const Tensor& self, std::string_view name) {
  if (name == "shape") return shape_value(self.shape());
  if (name == "dtype") return self.dtype();
  if (name == "device") {
    if (!self.is_multi()) return self.device();
    Tuple names;
    for (const Tensor& s : self.shards()) names.items.emplace_back(s.device());
    return names;
  }
  if (name == "ndim") return int64_t{self.ndim()};
  if (name == "grad") return self.grad() ? Value(*self.grad()) : Value(NoneValue{});
  return self.T();  // T is an attribute in tinygrad, not a method
}

}  // namespace tr::repl
