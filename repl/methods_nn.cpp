// The neural-net methods of Tensor with tinygrad 0.14's parameters and defaults: activations,
// convolution and pooling, interpolate, attention, normalisation and the losses. The engine does
// the work (core/tensor/*.cpp); this file binds the arguments and names a bad one with a caret.
#include <cmath>

#include "repl/convert.h"
#include "repl/method_table.h"
#include "repl/nn.h"
#include "repl/training.h"
#include "repl/operators.h"
#include "repl/source_error.h"

namespace tr::repl {
namespace {

using Ints = Tensor::Ints;

// A tensor, or nothing for a parameter left out or given as None.
std::optional<Tensor> optional_tensor(const Bound& b, std::string_view name) {
  const Arg* a = b.find(name);
  return a && !a->value.is<NoneValue>() ? std::optional<Tensor>(to_tensor(*a)) : std::nullopt;
}

// tinygrad's make_tuple(kernel_size, 2): an int is a square kernel.
Ints kernel_of(const Bound& b) {
  const Arg* a = b.find("kernel_size");
  if (!a) return {2, 2};
  const Ints k = to_ints(*a);
  return sequence_items(a->value) ? k : Ints{k[0], k[0]};
}

// A tensor argument, or a Python number as a constant of x's dtype class.
Tensor operand(const Tensor& x, const Arg& a, std::string_view op) { return tensor_operands(x, a.value, op).second; }

Tensor::Reduction reduction_of(const Bound& b) {
  const Arg* a = b.find("reduction");
  if (!a) return Tensor::Reduction::Mean;
  const std::string how = to_str(*a);
  if (how == "mean") return Tensor::Reduction::Mean;
  if (how == "sum") return Tensor::Reduction::Sum;
  if (how == "none") return Tensor::Reduction::None;
  fail_at(a->span, "value", "reduction must be 'mean', 'sum' or 'none', not '{}'", how);
}

// Activations without parameters.
void add_plain_activations(MethodTable& t) {
  using Unary = Tensor (Tensor::*)() const;
  const std::pair<const char*, Unary> ops[] = {
      {"mish", &Tensor::mish},   {"hardswish", &Tensor::hardswish}, {"relu6", &Tensor::relu6},
      {"quick_gelu", &Tensor::quick_gelu}, {"swish", &Tensor::swish}, {"logsigmoid", &Tensor::logsigmoid},
      {"softsign", &Tensor::softsign}, {"erf", &Tensor::erf},     {"log10", &Tensor::log10},
      {"sinh", &Tensor::sinh},   {"cosh", &Tensor::cosh},           {"asin", &Tensor::asin},
      {"acos", &Tensor::acos},   {"atan", &Tensor::atan},
  };
  for (const auto& [name, op] : ops) {
    t[name] = [op = op](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
      bind(call, {});
      return (x.*op)();
    };
  }
}

void add_parameter_activations(MethodTable& t) {
  t["leaky_relu"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.leaky_relu(number_or(bind(call, {{"neg_slope"}}), "neg_slope", 0.01));
  };
  t["elu"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    return x.elu(number_or(bind(call, {{"alpha"}}), "alpha", 1.0));
  };
  t["celu"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"alpha"}});
    const double alpha = number_or(b, "alpha", 1.0);
    if (alpha == 0) fail_at(b["alpha"].span, "value", "celu's alpha must not be 0");
    return x.celu(alpha);
  };
  t["selu"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"alpha"}, {"gamma"}});
    return x.selu(number_or(b, "alpha", 1.67326), number_or(b, "gamma", 1.0507));
  };
  t["softplus"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"beta"}});
    const double beta = number_or(b, "beta", 1.0);
    if (beta == 0) fail_at(b["beta"].span, "value", "softplus's beta must not be 0");
    return x.softplus(beta);
  };
  t["hardsigmoid"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"alpha"}, {"beta"}});
    return x.hardsigmoid(number_or(b, "alpha", 1.0 / 6), number_or(b, "beta", 0.5));
  };
  t["hardtanh"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"min_val"}, {"max_val"}});
    return x.hardtanh(b.find("min_val") ? to_number(b["min_val"]) : ConstValue{int64_t{-1}},
                      b.find("max_val") ? to_number(b["max_val"]) : ConstValue{int64_t{1}});
  };
  t["softmin"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"axis"}, {"dtype"}});
    return x.softmin(dim_or(b, "axis", -1), to_optional_dtype(b.find("dtype")));
  };
  t["gelu"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"approximate"}});
    const Arg* a = b.find("approximate");
    const std::string how = a ? to_str(*a) : "tanh";
    if (how != "tanh" && how != "none") fail_at(a->span, "value", "gelu's approximate must be 'tanh' or 'none', not '{}'", how);
    return x.gelu(how == "tanh" ? Tensor::GeluApprox::Tanh : Tensor::GeluApprox::None);
  };
  t["logaddexp"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"other", kRequired}});
    return x.logaddexp(operand(x, b["other"], call.name));
  };
  t["fmod"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"x", kRequired}});
    return x.fmod(operand(x, b["x"], call.name));
  };
  t["lerp"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"end", kRequired}, {"weight", kRequired}});
    // tinygrad's integer path: uint8 with a tensor weight stays uint8
    if (x.dtype() == DType::UInt8 && b["weight"].value.is<Tensor>())
      return x.lerp_fixed_point(to_tensor(b["end"]), to_tensor(b["weight"]));
    return x.lerp(to_tensor(b["end"]), operand(x, b["weight"], call.name));
  };
}

void add_convolutions(MethodTable& t) {
  t["conv2d"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"weight", kRequired}, {"bias"}, {"groups"}, {"stride"}, {"dilation"}, {"padding"}, {"dtype"}});
    return x.conv2d(to_tensor(b["weight"]), optional_tensor(b, "bias"), int_or(b, "groups", 1), ints_or(b, "stride", {1}),
                    ints_or(b, "dilation", {1}), ints_or(b, "padding", {0}), to_optional_dtype(b.find("dtype")));
  };
  t["conv_transpose2d"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"weight", kRequired}, {"bias"}, {"groups"}, {"stride"}, {"dilation"}, {"padding"},
                                {"output_padding"}});
    return x.conv_transpose2d(to_tensor(b["weight"]), optional_tensor(b, "bias"), int_or(b, "groups", 1),
                              ints_or(b, "stride", {1}), ints_or(b, "dilation", {1}), ints_or(b, "padding", {0}),
                              ints_or(b, "output_padding", {0}));
  };
  t["max_pool2d"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"kernel_size"}, {"stride"}, {"dilation"}, {"padding"}, {"ceil_mode"}, {"return_indices"}});
    if (flag_or(b, "return_indices", false)) {
      const auto [values, indices] =
          x.max_pool2d_with_indices(kernel_of(b), ints_or(b, "stride", {}), ints_or(b, "dilation", {1}),
                                    ints_or(b, "padding", {0}), flag_or(b, "ceil_mode", false));
      return Tuple{{values, indices}};
    }
    return x.max_pool2d(kernel_of(b),
                        ints_or(b, "stride", {}), ints_or(b, "dilation", {1}), ints_or(b, "padding", {0}),
                        flag_or(b, "ceil_mode", false));
  };
  t["max_unpool2d"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"indices", kRequired}, {"kernel_size"}, {"stride"}, {"dilation"}, {"padding"}, {"output_size"}});
    const Arg* size = b.find("output_size");
    return x.max_unpool2d(to_tensor(b["indices"]), kernel_of(b), ints_or(b, "stride", {}), ints_or(b, "dilation", {1}),
                          ints_or(b, "padding", {0}), size && !size->value.is<NoneValue>() ? to_ints(*size) : Ints{});
  };
  t["linear"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"weight", kRequired}, {"bias"}, {"dtype"}});
    return x.linear(to_tensor(b["weight"]), optional_tensor(b, "bias"), to_optional_dtype(b.find("dtype")));
  };
  t["avg_pool2d"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"kernel_size"}, {"stride"}, {"dilation"}, {"padding"}, {"ceil_mode"}, {"count_include_pad"}});
    return x.avg_pool2d(kernel_of(b),
                        ints_or(b, "stride", {}), ints_or(b, "dilation", {1}), ints_or(b, "padding", {0}),
                        flag_or(b, "ceil_mode", false), flag_or(b, "count_include_pad", true));
  };
}

void add_resampling_and_attention(MethodTable& t) {
  t["interpolate"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"size", kRequired}, {"mode"}, {"align_corners"}});
    if (!sequence_items(b["size"].value)) fail_at(b["size"].span, "type", "{} must be a tuple of ints", b["size"].what);
    Tensor::Interpolation mode = Tensor::Interpolation::Linear;
    if (const Arg* m = b.find("mode")) {
      const std::string s = to_str(*m);
      if (s == "nearest") mode = Tensor::Interpolation::Nearest;
      else if (s == "nearest-exact") mode = Tensor::Interpolation::NearestExact;
      else if (s != "linear") fail_at(m->span, "value", "interpolate supports mode 'linear', 'nearest' or 'nearest-exact', not '{}'", s);
    }
    return x.interpolate(to_ints(b["size"]), mode, flag_or(b, "align_corners", false));
  };
  t["scaled_dot_product_attention"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"key", kRequired}, {"value", kRequired}, {"attn_mask"}, {"dropout_p"}, {"is_causal"},
                                {"enable_gqa"}});
    // tinygrad drops out only in training mode (TRAINING=1)
    const double dropout = training() ? number_or(b, "dropout_p", 0.0) : 0.0;
    return x.scaled_dot_product_attention(to_tensor(b["key"]), to_tensor(b["value"]), optional_tensor(b, "attn_mask"),
                                          flag_or(b, "is_causal", false), flag_or(b, "enable_gqa", false), dropout);
  };
  t["dropout"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"p"}});
    const double p = number_or(b, "p", 0.5);
    if (!(p >= 0 && p <= 1)) fail_at(b["p"].span, "value", "dropout's p={} is out of range [0, 1]", p);
    // as tinygrad's, dropout does nothing outside training mode (TRAINING=1)
    return training() ? x.dropout(p) : x;
  };
}

void add_normalisation(MethodTable& t) {
  t["layernorm"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"axis"}, {"eps"}});
    const Axes axes = b.find("axis") ? to_axes(b.find("axis")) : Axes{std::vector<int>{-1}};
    return x.layernorm(*axes, number_or(b, "eps", 1e-5));
  };
  t["batchnorm"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"weight", kRequired}, {"bias", kRequired}, {"mean", kRequired}, {"invstd", kRequired},
                                {"axis"}});
    const Axes axes = b.find("axis") ? to_axes(b.find("axis")) : Axes{std::vector<int>{1}};
    return x.batchnorm(optional_tensor(b, "weight"), optional_tensor(b, "bias"), to_tensor(b["mean"]),
                       to_tensor(b["invstd"]), *axes);
  };
}

void add_losses(MethodTable& t) {
  t["binary_crossentropy"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"Y", kRequired}, {"reduction"}});
    return x.binary_crossentropy(to_tensor(b["Y"]), reduction_of(b));
  };
  t["binary_crossentropy_logits"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"Y", kRequired}, {"reduction"}, {"pos_weight"}});
    return x.binary_crossentropy_logits(to_tensor(b["Y"]), reduction_of(b), optional_tensor(b, "pos_weight"));
  };
  t["sparse_categorical_crossentropy"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"Y", kRequired}, {"ignore_index"}, {"label_smoothing"}, {"reduction"}});
    return x.sparse_categorical_crossentropy(to_tensor(b["Y"]), int_or(b, "ignore_index", -1),
                                             number_or(b, "label_smoothing", 0.0), reduction_of(b));
  };
  t["cross_entropy"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"Y", kRequired}, {"reduction"}, {"label_smoothing"}});
    return x.cross_entropy(to_tensor(b["Y"]), reduction_of(b), number_or(b, "label_smoothing", 0.0));
  };
  t["nll_loss"] = [](const Tensor& x, const CallArgs& call, const PrintSink&) -> Value {
    const Bound b = bind(call, {{"Y", kRequired}, {"weight"}, {"ignore_index"}, {"reduction"}});
    const std::optional<int64_t> ignore =
        b.find("ignore_index") ? std::optional<int64_t>(to_int(b["ignore_index"])) : std::nullopt;
    return x.nll_loss(to_tensor(b["Y"]), optional_tensor(b, "weight"), ignore, reduction_of(b));
  };
}

}  // namespace

void add_nn_methods(MethodTable& t) {
  add_plain_activations(t);
  add_parameter_activations(t);
  add_convolutions(t);
  add_resampling_and_attention(t);
  add_normalisation(t);
  add_losses(t);
}

}  // namespace tr::repl
