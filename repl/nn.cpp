#include "repl/nn.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "repl/convert.h"
#include "repl/source_error.h"
#include "repl/training.h"

namespace tr::repl {
namespace {


Tensor uniform(const Shape& shape, double low, double high, uint64_t seed) { return Tensor::uniform(shape, low, high, seed); }

// Each parameter made by nn draws its own stream of the counter-based generator, in creation order,
// so that a script's layers are the same on every run.
uint64_t next_seed() {
  static uint64_t seed = 0x6e6e;  // "nn"
  return seed++;
}

Tensor times(const Tensor& t, double c) { return t.mul(Tensor::scalar_like(t, c)); }

Value linear(const CallArgs& call) {
  const Bound b = bind(call, {{"in_features", kRequired}, {"out_features", kRequired}, {"bias"}});
  const int64_t in = to_int(b["in_features"]), out = to_int(b["out_features"]);
  if (in <= 0 || out <= 0) fail_at(call.span, "value", "Linear needs positive sizes, not ({}, {})", in, out);
  // tinygrad 0.14: weight and bias uniform in [-1/sqrt(in), 1/sqrt(in))
  const double bound = 1 / std::sqrt(static_cast<double>(in));
  LinearLayer l{uniform({out, in}, -bound, bound, next_seed()).realize(), std::nullopt};
  if (!b.find("bias") || to_bool(b["bias"])) l.bias = uniform({out}, -bound, bound, next_seed()).realize();
  return std::make_shared<Object>(Object{std::move(l)});
}

Value conv2d(const CallArgs& call) {
  const Bound b = bind(call, {{"in_channels", kRequired}, {"out_channels", kRequired}, {"kernel_size", kRequired},
                              {"stride"}, {"padding"}, {"dilation"}, {"groups"}, {"bias"}});
  const int64_t in = to_int(b["in_channels"]), out = to_int(b["out_channels"]);
  const int64_t groups = int_or(b, "groups", 1);
  if (in <= 0 || out <= 0) fail_at(call.span, "value", "Conv2d needs positive channel counts, not ({}, {})", in, out);
  if (groups <= 0 || in % groups != 0 || out % groups != 0)
    fail_at(call.span, "value", "groups={} must divide both in_channels {} and out_channels {}", groups, in, out);
  Tensor::Ints k = to_ints(b["kernel_size"]);
  if (!sequence_items(b["kernel_size"].value)) k = {k[0], k[0]};  // an int is a square kernel
  for (const int64_t v : k)
    if (v <= 0) fail_at(b["kernel_size"].span, "value", "kernel sizes must be positive, got {}", v);
  Conv2dLayer l{Tensor::zeros({}), std::nullopt, groups, {1}, {1}, {0}};
  if (b.find("stride")) l.stride = to_ints(b["stride"]);
  if (b.find("dilation")) l.dilation = to_ints(b["dilation"]);
  if (const Arg* p = b.find("padding"); p && p->value.is<std::string>()) {
    // 'same': the output keeps the input's size, the odd element of padding after
    if (to_str(*p) != "same") fail_at(p->span, "value", "the only padding string is 'same', not '{}'", to_str(*p));
    if (l.stride != Tensor::Ints{1}) fail_at(p->span, "value", "padding='same' is not supported for strided convolutions");
    l.padding.clear();
    for (size_t i = k.size(); i-- > 0;) {
      const int64_t d = l.dilation.size() == 1 ? l.dilation[0] : l.dilation.at(i);
      const int64_t total = d * (k[i] - 1);
      l.padding.insert(l.padding.end(), {total / 2, total - total / 2});
    }
  } else if (p) {
    l.padding = to_ints(*p);
  }
  // tinygrad 0.14: weight and bias uniform in [-1/sqrt(in * prod(kernel)), 1/sqrt(...))
  double fan = static_cast<double>(in);
  for (const int64_t v : k) fan *= static_cast<double>(v);
  const double scale = 1 / std::sqrt(fan);
  Shape w_shape{out, in / groups};
  w_shape.insert(w_shape.end(), k.begin(), k.end());
  l.weight = uniform(w_shape, -scale, scale, next_seed()).realize();
  if (!b.find("bias") || to_bool(b["bias"])) l.bias = uniform({out}, -scale, scale, next_seed()).realize();
  return std::make_shared<Object>(Object{std::move(l)});
}

Value batch_norm(const CallArgs& call) {
  const Bound b = bind(call, {{"sz", kRequired}, {"eps"}, {"affine"}, {"track_running_stats"}, {"momentum"}});
  const int64_t sz = to_int(b["sz"]);
  if (sz <= 0) fail_at(b["sz"].span, "value", "BatchNorm needs a positive size, not {}", sz);
  BatchNormLayer l{number_or(b, "eps", 1e-5), number_or(b, "momentum", 0.1),
                   !b.find("track_running_stats") || to_bool(b["track_running_stats"]), std::nullopt, std::nullopt,
                   std::nullopt, std::nullopt, Tensor::zeros({}, DType::Int64).contiguous().realize()};
  l.num_batches_tracked.set_is_param(false);
  if (!b.find("affine") || to_bool(b["affine"])) {
    l.weight = Tensor::ones({sz}).contiguous().realize();
    l.bias = Tensor::zeros({sz}).contiguous().realize();
  }
  if (l.track_running_stats) {
    l.running_mean = Tensor::zeros({sz}).contiguous().realize();
    l.running_var = Tensor::ones({sz}).contiguous().realize();
    l.running_mean->set_is_param(false);
    l.running_var->set_is_param(false);
  }
  return std::make_shared<Object>(Object{std::move(l)});
}

// tinygrad 0.14's BatchNorm.__call__: the statistics over every axis but the channels (1).
Tensor batch_norm_forward(BatchNormLayer& n, const Tensor& x, Span span) {
  if (x.ndim() < 2 || (n.weight && x.shape()[1] != n.weight->shape()[0]) ||
      (n.running_mean && x.shape()[1] != n.running_mean->shape()[0])) {
    fail_at(span, "shape", "BatchNorm of {} channels cannot take an input of shape {}",
            n.weight ? n.weight->shape()[0] : n.running_mean ? n.running_mean->shape()[0] : 0, shape_str(x.shape()));
  }
  Shape stats_shape(static_cast<size_t>(x.ndim()), 1);
  stats_shape[1] = -1;
  std::vector<int> axes;
  for (int d = 0; d < x.ndim(); d++)
    if (d != 1) axes.push_back(d);
  const bool batch_statistics = training();
  if (n.track_running_stats && !batch_statistics) {
    const Tensor invstd = n.running_var->reshape(stats_shape).add(Tensor::scalar_like(x, n.eps)).rsqrt();
    return x.batchnorm(n.weight, n.bias, *n.running_mean, invstd);
  }
  const Tensor mean = x.mean(axes);
  const Tensor y = x.sub(mean.detach().reshape(stats_shape));  // the variance's gradient does not reach the mean
  const Tensor var = y.mul(y).mean(axes);
  if (n.track_running_stats) {
    const double count = static_cast<double>(x.numel()), unbiased = count / (count - static_cast<double>(x.shape()[1]));
    n.running_mean->assign(times(*n.running_mean, 1 - n.momentum).add(times(mean.detach(), n.momentum)));
    n.running_var->assign(times(*n.running_var, 1 - n.momentum).add(times(var.detach(), n.momentum * unbiased)));
    n.num_batches_tracked.assign(n.num_batches_tracked.add(Tensor::scalar_like(n.num_batches_tracked, int64_t{1})));
  }
  return x.batchnorm(n.weight, n.bias, mean, var.add(Tensor::scalar_like(var, n.eps)).rsqrt());
}

Value layer_norm(const CallArgs& call) {
  const Bound b = bind(call, {{"normalized_shape", kRequired}, {"eps"}, {"elementwise_affine"}});
  const Shape shape = to_shape({b["normalized_shape"]});
  LayerNormLayer l;
  for (size_t i = 0; i < shape.size(); i++) l.axes.push_back(-1 - static_cast<int>(i));
  l.eps = number_or(b, "eps", 1e-5);
  if (!b.find("elementwise_affine") || to_bool(b["elementwise_affine"])) {
    l.weight = Tensor::ones(shape).contiguous().realize();
    l.bias = Tensor::zeros(shape).contiguous().realize();
  }
  return std::make_shared<Object>(Object{std::move(l)});
}

Value embedding(const CallArgs& call) {
  const Bound b = bind(call, {{"vocab_size", kRequired}, {"embed_size", kRequired}});
  const int64_t vocab = to_int(b["vocab_size"]), embed = to_int(b["embed_size"]);
  if (vocab <= 0 || embed <= 0) fail_at(call.span, "value", "Embedding needs positive sizes, not ({}, {})", vocab, embed);
  // tinygrad's glorot_uniform: uniform in [-1, 1) times sqrt(6 / (vocab + embed))
  const double scale = std::sqrt(6.0 / static_cast<double>(vocab + embed));
  return std::make_shared<Object>(Object{EmbeddingLayer{uniform({vocab, embed}, -scale, scale, next_seed()).realize()}});
}

std::vector<Tensor> params_of(const Arg& a) {
  std::vector<Tensor> out;
  const std::vector<Value>* items = sequence_items(a.value);
  if (!items) fail_at(a.span, "type", "{} must be a list of tensors, not {}", a.what, type_name(a.value));
  for (const Value& v : *items) {
    const Tensor* t = v.get_if<Tensor>();
    if (!t) fail_at(a.span, "type", "{} must hold tensors only, not {}", a.what, type_name(v));
    if (!t->is_param()) continue;  // a buffer (running statistics) is not trained
    if (!is_float(t->dtype())) fail_at(a.span, "type", "an optimizer needs float tensors, not {}", name(t->dtype()));
    out.push_back(*t);
  }
  if (out.empty()) fail_at(a.span, "value", "an optimizer needs at least one parameter");
  return out;
}

Tensor zeros_of(const Tensor& p) { return Tensor::zeros(p.shape(), p.dtype(), p.device()).contiguous().realize(); }

Value optimizer(std::string_view which, const CallArgs& call) {
  Optimizer o;
  o.kind = which == "SGD" ? OptimizerKind::SGD : OptimizerKind::Adam;
  if (o.kind == OptimizerKind::SGD) {
    const Bound b = bind(call, {{"params", kRequired}, {"lr"}, {"momentum"}, {"weight_decay"}, {"nesterov"}});
    o.params = params_of(b["params"]);
    o.lr = number_or(b, "lr", 0.001);
    o.momentum = number_or(b, "momentum", 0);
    o.weight_decay = number_or(b, "weight_decay", 0);
    o.nesterov = b.find("nesterov") && to_bool(b["nesterov"]);
    if (o.momentum != 0)
      for (const Tensor& p : o.params) o.m.push_back(zeros_of(p));
  } else {
    const Bound b = bind(call, {{"params", kRequired}, {"lr"}, {"b1"}, {"b2"}, {"eps"}, {"weight_decay"}});
    o.params = params_of(b["params"]);
    o.lr = number_or(b, "lr", 0.001);
    o.b1 = number_or(b, "b1", 0.9);
    o.b2 = number_or(b, "b2", 0.999);
    o.eps = number_or(b, "eps", 1e-8);
    o.weight_decay = number_or(b, "weight_decay", which == "AdamW" ? 0.01 : 0.0);
    for (const Tensor& p : o.params) o.m.push_back(zeros_of(p)), o.v.push_back(zeros_of(p));
    o.b1_t = Tensor::ones({1}).contiguous().realize();
    o.b2_t = Tensor::ones({1}).contiguous().realize();
  }
  return std::make_shared<Object>(Object{std::move(o)});
}

void collect_parameters(const Value& v, std::vector<Value>& out) {
  if (const Tensor* t = v.get_if<Tensor>()) out.emplace_back(*t);
  if (const std::vector<Value>* items = sequence_items(v))
    for (const Value& i : *items) collect_parameters(i, out);
  if (const ObjectRef* o = v.get_if<ObjectRef>()) {
    if (const LinearLayer* l = std::get_if<LinearLayer>(&(*o)->kind)) {
      out.emplace_back(l->weight);
      if (l->bias) out.emplace_back(*l->bias);
    }
    if (const Conv2dLayer* l = std::get_if<Conv2dLayer>(&(*o)->kind)) {
      out.emplace_back(l->weight);
      if (l->bias) out.emplace_back(*l->bias);
    }
    // tinygrad's order: its attributes as BatchNorm.__init__ sets them
    if (const BatchNormLayer* l = std::get_if<BatchNormLayer>(&(*o)->kind)) {
      if (l->weight) out.emplace_back(*l->weight), out.emplace_back(*l->bias);
      out.emplace_back(l->num_batches_tracked);
      if (l->running_mean) out.emplace_back(*l->running_mean), out.emplace_back(*l->running_var);
    }
    if (const LayerNormLayer* l = std::get_if<LayerNormLayer>(&(*o)->kind); l && l->weight) {
      out.emplace_back(*l->weight);
      out.emplace_back(*l->bias);
    }
    if (const EmbeddingLayer* l = std::get_if<EmbeddingLayer>(&(*o)->kind)) out.emplace_back(l->weight);
  }
}


// tinygrad 0.14's SGD and LAMB (adam=True) updates as lazy assigns, each parameter's new value from its
// gradient. Returns what realizing performs the step: the optimizer's state, then the parameters.
std::vector<Tensor> schedule_step(Optimizer& o, Span span) {
  if (!training()) {
    fail_at(span, "value", "TRAINING=0: an optimizer steps in training mode only, as tinygrad's: run it under "
                           "`with Context(TRAINING=1):` or in a def decorated with @Context(TRAINING=1)");
  }
  std::vector<Tensor> grads;
  for (const Tensor& p : o.params) {
    if (!p.grad()) fail_at(span, "value", "a parameter of shape {} has no .grad: call loss.backward() first",
                           shape_str(p.shape()));
    grads.push_back(*p.grad());
  }
  std::vector<Tensor> state;
  at(span, [&] {
    if (o.kind == OptimizerKind::SGD) {
      for (size_t i = 0; i < o.params.size(); i++) {
        const Tensor& p = o.params[i];
        Tensor g = grads[i].add(times(p.detach(), o.weight_decay));
        if (o.momentum != 0) {
          o.m[i].assign(times(o.m[i], o.momentum).add(g));
          g = o.nesterov ? g.add(times(o.m[i], o.momentum)) : o.m[i];
        }
        p.assign(p.detach().sub(times(g, o.lr)));
      }
      state = o.m;
    } else {
      o.b1_t->assign(times(*o.b1_t, o.b1));
      o.b2_t->assign(times(*o.b2_t, o.b2));
      for (size_t i = 0; i < o.params.size(); i++) {
        const Tensor& p = o.params[i];
        const Tensor& g = grads[i];
        o.m[i].assign(times(o.m[i], o.b1).add(times(g, 1 - o.b1)));
        o.v[i].assign(times(o.v[i], o.b2).add(times(g.mul(g), 1 - o.b2)));
        const Tensor one = Tensor::scalar_like(*o.b1_t, 1.0);
        const Tensor m_hat = o.m[i].div(one.sub(*o.b1_t));
        const Tensor v_hat = o.v[i].div(one.sub(*o.b2_t));
        const Tensor up =
            m_hat.div(v_hat.sqrt().add(Tensor::scalar_like(v_hat, o.eps))).add(times(p.detach(), o.weight_decay));
        p.assign(p.detach().sub(times(up, o.lr)));
      }
      state = {*o.b1_t, *o.b2_t};
      state.insert(state.end(), o.m.begin(), o.m.end());
      state.insert(state.end(), o.v.begin(), o.v.end());
    }
  });
  state.insert(state.end(), o.params.begin(), o.params.end());
  return state;
}

}  // namespace

std::string_view object_type(const Object& o) {
  if (std::holds_alternative<LinearLayer>(o.kind)) return "Linear";
  if (std::holds_alternative<Conv2dLayer>(o.kind)) return "Conv2d";
  if (std::holds_alternative<BatchNormLayer>(o.kind)) return "BatchNorm";
  if (std::holds_alternative<LayerNormLayer>(o.kind)) return "LayerNorm";
  if (std::holds_alternative<EmbeddingLayer>(o.kind)) return "Embedding";
  if (std::holds_alternative<TrainingContext>(o.kind)) return "Context";
  if (std::holds_alternative<SymbolicVariable>(o.kind)) return "Variable";
  return std::get<Optimizer>(o.kind).kind == OptimizerKind::SGD ? "SGD" : "LAMB";
}

const std::vector<std::string>& nn_function_names() {
  static const std::vector<std::string> names{"nn.Linear",    "nn.Conv2d",      "nn.BatchNorm",  "nn.BatchNorm2d",
                                              "nn.BatchNorm3d", "nn.LayerNorm",  "nn.Embedding",  "nn.optim.SGD",
                                              "nn.optim.Adam", "nn.optim.AdamW", "nn.state.get_parameters"};
  return names;
}

bool is_nn_function(std::string_view dotted) {
  return std::find(nn_function_names().begin(), nn_function_names().end(), dotted) != nn_function_names().end();
}

Value call_nn(std::string_view dotted, const CallArgs& call) {
  if (dotted == "nn.Linear") return linear(call);
  if (dotted == "nn.Conv2d") return conv2d(call);
  if (dotted.starts_with("nn.BatchNorm")) return batch_norm(call);
  if (dotted == "nn.LayerNorm") return layer_norm(call);
  if (dotted == "nn.Embedding") return embedding(call);
  if (dotted == "nn.state.get_parameters") {
    const Bound b = bind(call, {{"obj", kRequired}});
    List out;
    collect_parameters(b["obj"].value, out.items);
    return out;
  }
  return optimizer(dotted.substr(dotted.rfind('.') + 1), call);
}

Value object_attribute(const ObjectRef& o, std::string_view name, Span span) {
  if (const LinearLayer* l = std::get_if<LinearLayer>(&o->kind)) {
    if (name == "weight") return l->weight;
    if (name == "bias") return l->bias ? Value(*l->bias) : Value(NoneValue{});
  } else if (const Conv2dLayer* c = std::get_if<Conv2dLayer>(&o->kind)) {
    if (name == "weight") return c->weight;
    if (name == "bias") return c->bias ? Value(*c->bias) : Value(NoneValue{});
    if (name == "groups") return c->groups;
  } else if (const BatchNormLayer* n = std::get_if<BatchNormLayer>(&o->kind)) {
    const auto maybe = [](const std::optional<Tensor>& t) { return t ? Value(*t) : Value(NoneValue{}); };
    if (name == "weight") return maybe(n->weight);
    if (name == "bias") return maybe(n->bias);
    if (name == "running_mean") return maybe(n->running_mean);
    if (name == "running_var") return maybe(n->running_var);
    if (name == "num_batches_tracked") return n->num_batches_tracked;
    if (name == "eps") return n->eps;
    if (name == "momentum") return n->momentum;
    if (name == "track_running_stats") return n->track_running_stats;
  } else if (const LayerNormLayer* n = std::get_if<LayerNormLayer>(&o->kind)) {
    if (name == "weight") return n->weight ? Value(*n->weight) : Value(NoneValue{});
    if (name == "bias") return n->bias ? Value(*n->bias) : Value(NoneValue{});
    if (name == "eps") return n->eps;
  } else if (const EmbeddingLayer* e = std::get_if<EmbeddingLayer>(&o->kind)) {
    if (name == "weight") return e->weight;
  } else if (std::holds_alternative<TrainingContext>(o->kind)) {
  } else if (const SymbolicVariable* v = std::get_if<SymbolicVariable>(&o->kind)) {
    return variable_attribute(*v, name, span);
  } else {
    const Optimizer& opt = std::get<Optimizer>(o->kind);
    if (name == "params") {
      List out;
      for (const Tensor& t : opt.params) out.items.emplace_back(t);
      return out;
    }
    if (name == "lr") return opt.lr;
    if (name == "momentum") return opt.momentum;
    if (name == "weight_decay" || name == "wd") return opt.weight_decay;
    if (name == "b1") return opt.b1;
    if (name == "b2") return opt.b2;
    if (name == "eps") return opt.eps;
  }
  fail_at(span, "name", "'{}' object has no attribute '{}'", object_type(*o), name);
}

namespace {

// A tensor that replaces a layer's: same shape, so that the layer still computes.
Tensor replacing(const Tensor& old, const Arg& v) {
  const Tensor t = to_tensor(v);
  if (t.shape() != old.shape()) {
    fail_at(v.span, "shape", "the new tensor has shape {}, the layer's {}", shape_str(t.shape()), shape_str(old.shape()));
  }
  return t;
}

}  // namespace

void set_object_attribute(const ObjectRef& o, std::string_view name, const Arg& v, Span span) {
  if (LinearLayer* l = std::get_if<LinearLayer>(&o->kind)) {
    if (name == "weight") return void(l->weight = replacing(l->weight, v));
    if (name == "bias" && l->bias) return void(l->bias = replacing(*l->bias, v));
  } else if (LayerNormLayer* n = std::get_if<LayerNormLayer>(&o->kind)) {
    if (name == "eps") return void(n->eps = to_float(v));
    if (name == "weight" && n->weight) return void(n->weight = replacing(*n->weight, v));
    if (name == "bias" && n->bias) return void(n->bias = replacing(*n->bias, v));
  } else if (EmbeddingLayer* e = std::get_if<EmbeddingLayer>(&o->kind)) {
    if (name == "weight") return void(e->weight = replacing(e->weight, v));
  } else if (Optimizer* opt = std::get_if<Optimizer>(&o->kind)) {
    if (name == "lr") return void(opt->lr = to_float(v));
    if (name == "momentum" && opt->kind == OptimizerKind::SGD && opt->momentum != 0)
      return void(opt->momentum = to_float(v));
    if (name == "weight_decay" || name == "wd") return void(opt->weight_decay = to_float(v));
    if (name == "nesterov" && opt->kind == OptimizerKind::SGD) return void(opt->nesterov = to_bool(v));
    if (opt->kind == OptimizerKind::Adam) {
      if (name == "b1") return void(opt->b1 = to_float(v));
      if (name == "b2") return void(opt->b2 = to_float(v));
      if (name == "eps") return void(opt->eps = to_float(v));
    }
  }
  fail_at(span, "type", "cannot set attribute '{}' of a '{}' object", name, object_type(*o));
}

Value call_object_method(const ObjectRef& o, const CallArgs& call) {
  if (const SymbolicVariable* v = std::get_if<SymbolicVariable>(&o->kind)) return call_variable_method(*v, call);
  Optimizer* opt = std::get_if<Optimizer>(&o->kind);
  if (opt && call.name == "zero_grad") {
    bind(call, {});
    for (const Tensor& p : opt->params) p.set_grad(std::nullopt);
    return NoneValue{};
  }
  if (opt && call.name == "step") {
    bind(call, {});
    const std::vector<Tensor> state = schedule_step(*opt, call.span);
    at(call.span, [&] { Tensor::realize_together(state); });
    return NoneValue{};
  }
  if (opt && call.name == "schedule_step") {
    bind(call, {});
    List out;
    for (const Tensor& t : schedule_step(*opt, call.span)) out.items.emplace_back(t);
    return out;
  }
  fail_at(call.span, "name", "'{}' object has no method '{}'", object_type(*o), call.name);
}

Value call_object(const ObjectRef& o, const CallArgs& call) {
  if (std::holds_alternative<Optimizer>(o->kind) || std::holds_alternative<TrainingContext>(o->kind) ||
      std::holds_alternative<SymbolicVariable>(o->kind))
    fail_at(call.span, "type", "'{}' object is not callable", object_type(*o));
  const Bound b = bind(call, {{"x", kRequired}});
  const Tensor x = to_tensor(b["x"]);
  if (const Conv2dLayer* c = std::get_if<Conv2dLayer>(&o->kind))
    return x.conv2d(c->weight, c->bias, c->groups, c->stride, c->dilation, c->padding);
  if (BatchNormLayer* n = std::get_if<BatchNormLayer>(&o->kind)) return batch_norm_forward(*n, x, call.span);
  if (const LayerNormLayer* n = std::get_if<LayerNormLayer>(&o->kind)) {
    const Tensor y = x.sub(x.mean(n->axes, true));
    const Tensor normed = y.mul(y.mul(y).mean(n->axes, true).add(Tensor::scalar_like(y, n->eps)).rsqrt());
    return n->weight ? normed.mul(*n->weight).add(*n->bias) : normed;
  }
  if (const EmbeddingLayer* e = std::get_if<EmbeddingLayer>(&o->kind)) {
    // the rows of weight picked by idx, as a one-hot matmul: gradients reach every row that was picked
    const int64_t vocab = e->weight.shape()[0];
    const Tensor hot = x.unsqueeze(-1)
                           .eq(Tensor::arange(int64_t{0}, vocab, int64_t{1}, x.dtype(), x.device()))
                           .cast(e->weight.dtype());
    return hot.matmul(e->weight);
  }
  const LinearLayer* l = std::get_if<LinearLayer>(&o->kind);
  const Tensor y = x.matmul(l->weight.T());
  return l->bias ? y.add(*l->bias) : y;
}

}  // namespace tr::repl
