// The methods of tinygrad's tensor functions beyond the core ones: layout, tests and bitwise ops,
// indexing by tensors and selections, scans and sorting, more element-wise math, statistics, sizes,
// random draws like a tensor and buffers of their own, with tinygrad's parameter names and defaults.
#include <algorithm>
#include <iterator>
#include <optional>

#include "core/tensor/copysign.h"
#include "core/tensor/dims.h"
#include "core/tensor/div_rounding.h"
#include "core/tensor/hyperbolic.h"
#include "core/tensor/index.h"
#include "core/tensor/logic.h"
#include "core/tensor/moments.h"
#include "core/tensor/own_buffer.h"
#include "core/tensor/random_derived.h"
#include "core/tensor/scan.h"
#include "core/tensor/select.h"
#include "core/tensor/sort.h"
#include "repl/convert.h"
#include "repl/method_table.h"
#include "repl/operators.h"
#include "repl/source_error.h"

namespace tr::repl {
namespace {


// A tensor argument, or a number made a constant beside x by tinygrad's scalar rule.
Tensor operand(const Tensor& x, const Arg& a) {
  if (const Tensor* t = a.value.get_if<Tensor>()) return *t;
  return Tensor::scalar_like(x, to_number(a));
}

std::optional<Tensor> optional_operand(const Tensor& x, const Arg* a) {
  return a ? std::optional<Tensor>(operand(x, *a)) : std::nullopt;
}

// size=: absent or None for the data's own length.
std::optional<int64_t> optional_size(const Bound& b) {
  const Arg* a = b.find("size");
  return a && !a->value.is<NoneValue>() ? std::optional<int64_t>(to_int(*a)) : std::nullopt;
}

ConstValue fill_or_zero(const Bound& b) {
  const Arg* a = b.find("fill_value");
  return a ? to_number(*a) : ConstValue{int64_t{0}};
}

template <typename Seq>
Value sequence_of(const std::vector<Tensor>& xs) {
  Seq out;
  for (const Tensor& x : xs) out.items.emplace_back(x);
  return out;
}

Value pair_of(const std::pair<Tensor, Tensor>& p) { return sequence_of<Tuple>({p.first, p.second}); }

void add_layout(MethodTable& t) {
  t["stack"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"args", kRest}, {"dim"}});
    std::vector<Tensor> all{x};
    for (const Arg& a : b.rest()) all.push_back(to_tensor(a));
    return stack(all, dim_or(b, "dim", 0));
  };
  t["split"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"sizes", kRequired}, {"dim"}});
    const int dim = dim_or(b, "dim", 0);
    if (b["sizes"].value.is<int64_t>()) return sequence_of<Tuple>(split(x, to_int(b["sizes"]), dim));
    return sequence_of<Tuple>(split(x, to_ints(b["sizes"]), dim));
  };
  t["chunk"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"chunks", kRequired}, {"dim"}});
    return sequence_of<List>(chunk(x, to_int(b["chunks"]), dim_or(b, "dim", 0)));
  };
  t["unflatten"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"dim", kRequired}, {"sizes", kRequired}});
    return unflatten(x, to_dim(b["dim"]), to_ints(b["sizes"]));
  };
  t["meshgrid"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"args", kRest}, {"indexing"}});
    std::vector<Tensor> all{x};
    for (const Arg& a : b.rest()) all.push_back(to_tensor(a));
    return sequence_of<Tuple>(meshgrid(all, indexing_is_xy(b.find("indexing"))));
  };
  t["repeat_interleave"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"repeats", kRequired}, {"dim"}});
    const Arg* d = b.find("dim");
    return repeat_interleave(x, to_int(b["repeats"]), d ? std::optional<int>(to_dim(*d)) : std::nullopt);
  };
  t["roll"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"shifts", kRequired}, {"dims"}});
    const Arg* d = b.find("dims");
    std::optional<std::vector<int>> dims;
    if (d) dims = to_dims({*d});
    return roll(x, to_ints(b["shifts"]), dims);
  };
  t["diag"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {});
    return diag(x);
  };
  t["diagonal"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"offset"}, {"dim1"}, {"dim2"}});
    return diagonal(x, int_or(b, "offset", 0), dim_or(b, "dim1", 0), dim_or(b, "dim2", 1));
  };
  t["tril"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"diagonal"}});
    return tril(x, int_or(b, "diagonal", 0));
  };
  t["triu"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"diagonal"}});
    return triu(x, int_or(b, "diagonal", 0));
  };
  t["unfold"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"dim", kRequired}, {"size", kRequired}, {"step", kRequired}});
    return unfold(x, to_dim(b["dim"]), to_int(b["size"]), to_int(b["step"]));
  };
}

void add_tests(MethodTable& t) {
  const auto clip_method = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"min_"}, {"max_"}});
    return clip(x, optional_operand(x, b.find("min_")), optional_operand(x, b.find("max_")));
  };
  t["clip"] = clip_method;
  t["clamp"] = clip_method;
  t["masked_fill"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"mask", kRequired}, {"value", kRequired}});
    return masked_fill(x, to_tensor(b["mask"]), operand(x, b["value"]));
  };
  t["isnan"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {});
    return isnan(x);
  };
  t["isinf"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"detect_positive"}, {"detect_negative"}});
    return isinf(x, flag_or(b, "detect_positive", true), flag_or(b, "detect_negative", true));
  };
  t["isfinite"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {});
    return isfinite(x);
  };
  t["isclose"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"other", kRequired}, {"rtol"}, {"atol"}, {"equal_nan"}});
    return isclose(x, operand(x, b["other"]), number_or(b, "rtol", 1e-5),
                   number_or(b, "atol", 1e-8), flag_or(b, "equal_nan", false));
  };
  const auto truth = [](Tensor (*f)(const Tensor&, const Axes&, bool)) {
    return [f](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      const Bound b = bind(call, {{"axis"}, {"keepdim"}});
      return f(x, to_axes(b.find("axis")), flag_or(b, "keepdim", false));
    };
  };
  t["any"] = truth(&any);
  t["all"] = truth(&all);
}

void add_bitwise(MethodTable& t) {
  const std::pair<const char*, Tensor (*)(const Tensor&, const Tensor&)> ops[] = {
      {"bitwise_and", &bitwise_and}, {"bitwise_or", &bitwise_or}, {"bitwise_xor", &bitwise_xor}};
  for (const auto& [name, op] : ops) {
    t[name] = [op = op](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      return op(x, operand(x, bind(call, {{"x", kRequired}})["x"]));
    };
  }
  t["bitwise_not"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {});
    return bitwise_not(x);
  };
  const std::pair<const char*, bool> shifts[] = {{"lshift", true}, {"rshift", false}};
  for (const auto& [name, left] : shifts) {
    t[name] = [left = left](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      const Bound b = bind(call, {{"x", kRequired}});
      const Arg& a = b["x"];
      if (const Tensor* counts = a.value.get_if<Tensor>()) return left ? lshift(x, *counts) : rshift(x, *counts);
      return left ? lshift(x, to_int(a)) : rshift(x, to_int(a));
    };
  }
}

void add_indexing(MethodTable& t) {
  t["gather"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"dim", kRequired}, {"index", kRequired}});
    return gather(x, to_dim(b["dim"]), to_tensor(b["index"]));
  };
  t["scatter"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"dim", kRequired}, {"index", kRequired}, {"src", kRequired}, {"reduce"}});
    const Tensor index = to_tensor(b["index"]);
    const Arg& src = b["src"];
    ScatterReduce how = ScatterReduce::None;
    if (const Arg* r = b.find("reduce")) {
      const std::string s = to_str(*r);
      if (s != "add" && s != "multiply")
        fail_at(r->span, "value", "reduce must be None, 'add' or 'multiply', not '{}'", s);
      if (src.value.is<Tensor>())
        fail_at(r->span, "type", "scatter's reduce= takes a number as src; with a tensor src use scatter_reduce");
      how = s == "add" ? ScatterReduce::Add : ScatterReduce::Multiply;
    }
    const Tensor values = src.value.is<Tensor>() ? to_tensor(src)
                                                 : Tensor::full(index.shape(), to_number(src), x.dtype(), x.device());
    return scatter(x, to_dim(b["dim"]), index, values, how);
  };
  t["scatter_reduce"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b =
        bind(call, {{"dim", kRequired}, {"index", kRequired}, {"src", kRequired}, {"reduce", kRequired}, {"include_self"}});
    const std::string how = to_str(b["reduce"]);
    const std::pair<const char*, ScatterReduceOp> ops[] = {{"sum", ScatterReduceOp::Sum},
                                                           {"prod", ScatterReduceOp::Prod},
                                                           {"mean", ScatterReduceOp::Mean},
                                                           {"amax", ScatterReduceOp::Amax},
                                                           {"amin", ScatterReduceOp::Amin}};
    const auto op = std::find_if(std::begin(ops), std::end(ops), [&](const auto& p) { return how == p.first; });
    if (op == std::end(ops))
      fail_at(b["reduce"].span, "value", "reduce must be 'sum', 'prod', 'mean', 'amax' or 'amin', not '{}'", how);
    return scatter_reduce(x, to_dim(b["dim"]), to_tensor(b["index"]), to_tensor(b["src"]), op->second,
                          flag_or(b, "include_self", true));
  };
  t["masked_select"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"mask", kRequired}, {"size"}, {"fill_value"}});
    return masked_select(x, to_tensor(b["mask"]), optional_size(b), fill_or_zero(b));
  };
  t["nonzero"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"size"}, {"fill_value"}});
    return nonzero(x, optional_size(b), fill_or_zero(b));
  };
  t["one_hot"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return one_hot(x, to_int(bind(call, {{"num_classes", kRequired}})["num_classes"]));
  };
}

void add_scans(MethodTable& t) {
  t["cumsum"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return cumsum(x, dim_or(bind(call, {{"axis"}}), "axis", 0));
  };
  t["cumprod"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return cumprod(x, to_dim(bind(call, {{"axis", kRequired}})["axis"]));
  };
  t["cummax"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return pair_of(cummax(x, dim_or(bind(call, {{"axis"}}), "axis", 0)));
  };
  t["cummin"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return pair_of(cummin(x, dim_or(bind(call, {{"axis"}}), "axis", 0)));
  };
  t["logcumsumexp"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return logcumsumexp(x, dim_or(bind(call, {{"axis"}}), "axis", 0));
  };
  t["sort"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"dim"}, {"descending"}});
    return pair_of(sort(x, dim_or(b, "dim", -1), flag_or(b, "descending", false)));
  };
  t["argsort"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"dim"}, {"descending"}});
    return argsort(x, dim_or(b, "dim", -1), flag_or(b, "descending", false));
  };
  t["topk"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"k", kRequired}, {"dim"}, {"largest"}, {"sorted_"}});
    if (!flag_or(b, "sorted_", true)) fail_at(b["sorted_"].span, "value", "topk with sorted_=False is not supported");
    return pair_of(topk(x, to_int(b["k"]), dim_or(b, "dim", -1), flag_or(b, "largest", true)));
  };
}

void add_elementwise(MethodTable& t) {
  const std::pair<const char*, Tensor (*)(const Tensor&)> unary[] = {
      {"asinh", &asinh}, {"acosh", &acosh}, {"atanh", &atanh}};
  for (const auto& [name, op] : unary) {
    t[name] = [op = op](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      bind(call, {});
      return op(x);
    };
  }
  t["copysign"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return copysign(x, operand(x, bind(call, {{"other", kRequired}})["other"]));
  };
  t["div"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"x", kRequired}, {"rounding_mode"}});
    const Arg* r = b.find("rounding_mode");
    Rounding rounding = Rounding::None;
    if (r && !r->value.is<NoneValue>()) {
      const std::string s = to_str(*r);
      if (s != "trunc" && s != "floor") fail_at(r->span, "value", "rounding_mode must be None, 'trunc' or 'floor', not '{}'", s);
      rounding = s == "trunc" ? Rounding::Trunc : Rounding::Floor;
    }
    const auto [num, den] = tensor_operands(x, b["x"].value, call.name);
    return div(num, den, rounding);
  };
  t["mod"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.mod(operand(x, bind(call, {{"x", kRequired}})["x"]));
  };
}

void add_statistics(MethodTable& t) {
  const std::pair<const char*, std::pair<Tensor, Tensor> (*)(const Tensor&, const Axes&, bool, double)> pairs[] = {
      {"var_mean", &var_mean}, {"std_mean", &std_mean}};
  for (const auto& [name, op] : pairs) {
    t[name] = [op = op](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      const Bound b = bind(call, {{"axis"}, {"keepdim"}, {"correction"}});
      const Arg* c = b.find("correction");
      return pair_of(op(x, to_axes(b.find("axis")), flag_or(b, "keepdim", false), c ? to_float(*c) : 1.0));
    };
  }
  t["normalize"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"p"}, {"dim"}, {"eps"}});
    return normalize(x, number_or(b, "p", 2.0), dim_or(b, "dim", 1), number_or(b, "eps", 1e-12));
  };
}

int64_t size_or_keep(const Arg& a) { return a.value.is<NoneValue>() ? -1 : to_int(a); }

// pad_to's sizes, given as pad_to((2, 4)) or pad_to(2, 4); None (or -1) keeps a dim.
std::vector<int64_t> pad_to_sizes(const std::vector<Arg>& args) {
  std::vector<int64_t> out;
  const std::vector<Value>* items = args.size() == 1 ? sequence_items(args[0].value) : nullptr;
  if (!items) {
    for (const Arg& a : args) out.push_back(size_or_keep(a));
    return out;
  }
  for (const Value& v : *items) out.push_back(size_or_keep(Arg{v, args[0].span, args[0].what}));
  return out;
}

// seed=: absent for the session's generator, else a stream of the call's own.
std::optional<uint64_t> optional_seed(const Bound& b) {
  const Arg* seed = b.find("seed");
  if (!seed) return std::nullopt;
  const int64_t s = to_int(*seed);
  if (s < 0) fail_at(seed->span, "value", "seed must not be negative");
  return static_cast<uint64_t>(s);
}

void add_sizes_and_likes(MethodTable& t) {
  t["element_size"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {});
    return int64_t{itemsize(x.dtype())};
  };
  t["nbytes"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {});
    return x.numel() * itemsize(x.dtype());
  };
  t["is_floating_point"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    bind(call, {});
    return is_float(x.dtype());
  };
  t["size"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"dim"}});
    const Arg* d = b.find("dim");
    if (!d || d->value.is<NoneValue>()) return shape_value(x.shape());
    return x.shape()[static_cast<size_t>(resolve_dim(to_dim(*d), x.ndim()))];
  };
  t["pad_to"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"shape", kRest}, {"value"}});
    return pad_to(x, pad_to_sizes(b.rest()), b.find("value") ? to_number(b["value"]) : ConstValue{int64_t{0}});
  };
  const std::pair<const char*, Tensor (*)(const Tensor&, std::optional<DType>, std::optional<uint64_t>)> drawn[] = {
      {"rand_like", &rand_like}, {"randn_like", &randn_like}};
  for (const auto& [name, op] : drawn) {
    t[name] = [op = op](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      const Bound b = bind(call, {{"dtype"}, {"seed"}, {"requires_grad"}});
      return op(x, to_optional_dtype(b.find("dtype")), optional_seed(b));
    };
  }
  t["multinomial"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"num_samples"}, {"replacement"}, {"seed"}});
    return multinomial(x, int_or(b, "num_samples", 1), flag_or(b, "replacement", false),
                       optional_seed(b));
  };
  t["clone"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"device"}});
    const Arg* d = b.find("device");
    return clone(d && !d->value.is<NoneValue>() ? x.to(to_str(*d)) : x);
  };
  t["empty_like"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"dtype"}, {"device"}});
    const Arg* d = b.find("device");
    return empty(x.shape(), to_optional_dtype(b.find("dtype")).value_or(x.dtype()),
                 d && !d->value.is<NoneValue>() ? to_str(*d) : x.device());
  };
}

}  // namespace

bool indexing_is_xy(const Arg* a) {
  if (!a) return false;
  const std::string s = to_str(*a);
  if (s != "ij" && s != "xy") fail_at(a->span, "value", "indexing must be 'ij' or 'xy', not '{}'", s);
  return s == "xy";
}

PadMode to_pad_mode(const Arg* a) {
  if (!a) return PadMode::Constant;
  const std::string s = to_str(*a);
  if (s == "constant") return PadMode::Constant;
  if (s == "reflect") return PadMode::Reflect;
  if (s == "replicate") return PadMode::Replicate;
  if (s == "circular") return PadMode::Circular;
  fail_at(a->span, "value", "pad mode must be 'constant', 'reflect', 'replicate' or 'circular', not '{}'", s);
}

void add_tensor_function_methods(MethodTable& t) {
  add_layout(t);
  add_tests(t);
  add_bitwise(t);
  add_indexing(t);
  add_scans(t);
  add_elementwise(t);
  add_statistics(t);
  add_sizes_and_likes(t);
}

}  // namespace tr::repl
