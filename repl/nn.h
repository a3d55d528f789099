#pragma once
// tinygrad's nn as built-in objects: nn.Linear, nn.Conv2d, nn.BatchNorm, nn.LayerNorm, nn.Embedding, and nn.optim.SGD, Adam and AdamW with zero_grad()
// and step(), and nn.state.get_parameters. Each object is a small typed value; its tensors are
// shared references, so model.weight, the optimizer's params and a name for the tensor are one tensor.
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "repl/arguments.h"
#include "repl/symbolic_variable.h"
#include "repl/value.h"

namespace tr::repl {

struct LinearLayer {
  Tensor weight;  // (out_features, in_features)
  std::optional<Tensor> bias;
};

struct Conv2dLayer {
  Tensor weight;  // (out_channels, in_channels / groups, kernel...)
  std::optional<Tensor> bias;
  int64_t groups = 1;
  Tensor::Ints stride, dilation, padding;  // as Tensor::conv2d takes them
};

// BatchNorm (BatchNorm2d, BatchNorm3d): batch statistics in training mode, the running ones otherwise.
struct BatchNormLayer {
  double eps = 1e-5, momentum = 0.1;
  bool track_running_stats = true;
  std::optional<Tensor> weight, bias;                // absent without affine
  std::optional<Tensor> running_mean, running_var;  // absent without track_running_stats
  Tensor num_batches_tracked;                        // int64, shape ()
};

struct LayerNormLayer {
  std::vector<int> axes;  // the last len(normalized_shape) dims
  double eps = 1e-5;
  std::optional<Tensor> weight, bias;  // absent without elementwise_affine
};

struct EmbeddingLayer {
  Tensor weight;  // (vocab_size, embed_size)
};

enum class OptimizerKind : uint8_t { SGD, Adam };

struct Optimizer {
  OptimizerKind kind = OptimizerKind::SGD;
  std::vector<Tensor> params;
  double lr = 0.001;
  double momentum = 0, weight_decay = 0;  // SGD; weight_decay is AdamW's too
  bool nesterov = false;
  double b1 = 0.9, b2 = 0.999, eps = 1e-8;  // Adam
  std::vector<Tensor> m, v;                 // SGD's momentum buffers in m; Adam's two moments
  std::optional<Tensor> b1_t, b2_t;         // Adam's running powers of b1 and b2
};

// Context(TRAINING=1) (repl/training.h): what a `with` statement enters and a decorator applies.
struct TrainingContext {
  bool training = true;
};

struct Object {
  std::variant<LinearLayer, Conv2dLayer, BatchNormLayer, LayerNormLayer, EmbeddingLayer, Optimizer, TrainingContext,
               SymbolicVariable> kind;
};


// "Linear", "SGD", "LAMB" (tinygrad's class for Adam and AdamW): the object's type in messages.
std::string_view object_type(const Object& o);

// The nn functions a dotted name can call ("nn.Linear", "nn.optim.Adam"), and whether name is one.
const std::vector<std::string>& nn_function_names();
bool is_nn_function(std::string_view dotted);
Value call_nn(std::string_view dotted, const CallArgs& call);

Value object_attribute(const ObjectRef& o, std::string_view name, Span span);
// o.name = v, for the attributes a program may set (an optimizer's lr, a layer's weight).
void set_object_attribute(const ObjectRef& o, std::string_view name, const Arg& v, Span span);
Value call_object_method(const ObjectRef& o, const CallArgs& call);
// layer(x)
Value call_object(const ObjectRef& o, const CallArgs& call);

}  // namespace tr::repl
