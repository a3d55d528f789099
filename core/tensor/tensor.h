#pragma once
// The engine's C++ API: a Tensor is a handle on a lazy node. Operations follow tinygrad's Tensor
// (names, defaults, broadcasting and dtype promotion); every one is built from the primitives of
// core/ir/ops.h. Errors throw tr::Error.
//
// A Tensor is a reference, as a Python Tensor object is: copies share one state (the node and the
// gradient), so assign() and backward() change what every copy sees. Every operation makes a new
// Tensor; only assign, realize and the gradient setters change a state.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/runtime/buffer.h"
#include "core/ir/dtype.h"
#include "core/lazy/lazy.h"

namespace tr {

using Axes = std::optional<std::vector<int>>;  // nullopt: every axis

struct Slice {
  std::optional<int64_t> start, stop, step;
};
struct NewAxis {};
struct Ellipsis {};
using Index = std::variant<int64_t, Slice, NewAxis, Ellipsis>;

struct TensorState;

class Tensor {
 public:
  // A node kMaxLazyDepth ops deep is realized here: a graph is cut into kernels rather than grow
  // deeper than its walks can recurse.
  explicit Tensor(LazyRef node);

  // creation (device "" means the session's default device)
  static Tensor from_host(HostData data, const Shape& shape, const std::string& device = "");
  static Tensor full(const Shape& shape, ConstValue value, std::optional<DType> dtype = {}, const std::string& device = "");
  static Tensor zeros(const Shape& shape, DType dtype = DType::Float32, const std::string& device = "");
  static Tensor ones(const Shape& shape, DType dtype = DType::Float32, const std::string& device = "");
  // dtype defaults to int32 when start, stop and step are all integers, else float32
  static Tensor arange(ConstValue start, ConstValue stop, ConstValue step = int64_t{1}, std::optional<DType> dtype = {},
                       const std::string& device = "");
  static Tensor linspace(ConstValue start, ConstValue stop, int64_t steps, DType dtype = DType::Float32,
                         const std::string& device = "");
  static Tensor eye(int64_t n, std::optional<int64_t> m = {}, DType dtype = DType::Float32, const std::string& device = "");
  // Counter-based: element i of a seeded stream is a pure function of (seed, i); without a seed, the
  // session's generator, which each call advances (see core/tensor/random.h).
  static Tensor rand(const Shape& shape, std::optional<uint64_t> seed = {}, DType dtype = DType::Float32,
                     const std::string& device = "");
  static Tensor randn(const Shape& shape, std::optional<uint64_t> seed = {}, DType dtype = DType::Float32,
                      const std::string& device = "");
  // A Python scalar as an operand of x: tinygrad's rule (float tensors and int-with-int keep x's dtype).
  static Tensor scalar_like(const Tensor& x, ConstValue v);
  // a 0-dim zero of x's own dtype (false for bool), the other side of a where()
  static Tensor zero_of(const Tensor& x);
  Tensor full_like(ConstValue v, std::optional<DType> dtype = {}) const;
  Tensor zeros_like() const;
  Tensor ones_like() const;

  // attributes
  const LazyRef& node() const;
  // Python's `is`: the two handles are one tensor (assign() through one changes the other).
  bool is(const Tensor& other) const { return state_ == other.state_; }
  const Shape& shape() const { return node()->shape; }
  DType dtype() const { return node()->dtype; }
  const std::string& device() const { return node()->device; }
  int ndim() const { return static_cast<int>(shape().size()); }
  int64_t numel() const { return tr::prod(shape()); }
  bool realized() const;
  // Python's `is`: the same tensor (every copy of a handle is the same tensor).
  bool same(const Tensor& other) const { return state_ == other.state_; }

  // element-wise
  Tensor neg() const;
  Tensor exp() const;
  Tensor exp2() const;
  Tensor log() const;
  Tensor log2() const;
  Tensor sqrt() const;
  Tensor rsqrt() const;
  Tensor sin() const;
  Tensor cos() const;
  Tensor tan() const;
  Tensor relu() const;
  Tensor sigmoid() const;
  Tensor tanh() const;
  enum class GeluApprox : uint8_t { Tanh, None };  // tinygrad's approximate='tanh' | 'none' (erf)
  Tensor gelu(GeluApprox approximate = GeluApprox::Tanh) const;
  Tensor silu() const;
  Tensor abs() const;
  Tensor sign() const;
  Tensor reciprocal() const;
  Tensor square() const;
  Tensor floor() const;
  Tensor ceil() const;
  Tensor trunc() const;
  Tensor round() const;  // half to even
  Tensor logical_not() const;
  // An order-reversing map of every dtype (-x, ~x or not x): min and cummin are max and cummax of it.
  Tensor inverse() const;
  Tensor cast(DType dtype) const;
  // The same bits as dtype, of the same item size (core/tensor/bitcast.cpp); not to or from bool or float16.
  Tensor bitcast(DType dtype) const;

  Tensor add(const Tensor& y) const;
  Tensor sub(const Tensor& y) const;
  Tensor mul(const Tensor& y) const;
  Tensor div(const Tensor& y) const;       // true division: ints become float
  Tensor floordiv(const Tensor& y) const;  // Python's //
  Tensor mod(const Tensor& y) const;       // Python's %: the sign of the divisor
  Tensor pow(const Tensor& y) const;
  Tensor pow(const ConstValue& exponent) const;  // x ** c: exact products for integer and half-integer c
  Tensor rpow(const ConstValue& base) const;     // c ** x
  Tensor maximum(const Tensor& y) const;
  Tensor minimum(const Tensor& y) const;
  Tensor where(const Tensor& a, const Tensor& b) const;  // this is the condition
  Tensor eq(const Tensor& y) const;
  Tensor ne(const Tensor& y) const;
  Tensor lt(const Tensor& y) const;
  Tensor le(const Tensor& y) const;
  Tensor gt(const Tensor& y) const;
  Tensor ge(const Tensor& y) const;
  Tensor logical_and(const Tensor& y) const;  // bool (or bitwise on ints)
  Tensor logical_or(const Tensor& y) const;
  Tensor bitwise_xor(const Tensor& y) const;

  // reductions
  Tensor sum(const Axes& axis = {}, bool keepdim = false) const;
  Tensor max(const Axes& axis = {}, bool keepdim = false) const;
  Tensor min(const Axes& axis = {}, bool keepdim = false) const;
  Tensor mean(const Axes& axis = {}, bool keepdim = false) const;
  Tensor var(const Axes& axis = {}, bool keepdim = false, double correction = 1) const;
  Tensor std(const Axes& axis = {}, bool keepdim = false, double correction = 1) const;
  Tensor prod(const Axes& axis = {}, bool keepdim = false) const;
  Tensor argmax(std::optional<int> axis = {}, bool keepdim = false) const;
  Tensor argmin(std::optional<int> axis = {}, bool keepdim = false) const;
  // dtype: the dtype x - max(x) is cast to before exp (tinygrad's softmax(dtype=))
  Tensor softmax(int axis = -1, std::optional<DType> dtype = {}) const;
  Tensor log_softmax(int axis = -1, std::optional<DType> dtype = {}) const;
  // sum(dtype=) and prod(dtype=): the tensor cast to acc, then reduced in it
  Tensor sum(const Axes& axis, bool keepdim, DType acc) const;
  Tensor prod(const Axes& axis, bool keepdim, DType acc) const;
  Tensor logsumexp(const Axes& axis = {}, bool keepdim = false) const;

  // movement (-1 allowed once in reshape; -1 keeps a dim in expand)
  Tensor reshape(const std::vector<int64_t>& shape) const;
  Tensor permute(const std::vector<int>& order) const;
  Tensor expand(const std::vector<int64_t>& shape) const;
  Tensor pad(const std::vector<Range>& padding, ConstValue value = int64_t{0}) const;  // (before, after) per dim
  Tensor shrink(const std::vector<std::optional<Range>>& bounds) const;              // nullopt: whole dim
  Tensor flip(const std::vector<int>& axes) const;
  Tensor transpose(int a = 1, int b = 0) const;
  Tensor T() const;
  Tensor flatten(int start_dim = 0, int end_dim = -1) const;
  Tensor unsqueeze(int dim) const;
  Tensor squeeze(std::optional<int> dim = {}) const;
  Tensor repeat(const std::vector<int64_t>& repeats) const;
  Tensor cat(const std::vector<Tensor>& others, int dim = 0) const;
  Tensor getitem(const std::vector<Index>& indices) const;

  // linear algebra
  Tensor dot(const Tensor& w) const;
  Tensor matmul(const Tensor& w) const;

  // ---- neural-net functions, with tinygrad 0.14's names, defaults and formulas ----
  // activations and element-wise math (core/tensor/activation.cpp)
  Tensor leaky_relu(double neg_slope = 0.01) const;
  Tensor elu(double alpha = 1.0) const;
  Tensor celu(double alpha = 1.0) const;
  Tensor selu(double alpha = 1.67326, double gamma = 1.0507) const;
  Tensor softplus(double beta = 1.0) const;
  Tensor mish() const;
  Tensor hardswish() const;
  Tensor hardsigmoid(double alpha = 1.0 / 6, double beta = 0.5) const;
  Tensor hardtanh(ConstValue min_val = int64_t{-1}, ConstValue max_val = int64_t{1}) const;
  Tensor relu6() const;
  Tensor quick_gelu() const;
  Tensor swish() const;
  Tensor logsigmoid() const;
  Tensor softsign() const;
  Tensor softmin(int axis = -1, std::optional<DType> dtype = {}) const;
  Tensor erf() const;  // Abramowitz and Stegun 7.1.26, as tinygrad
  Tensor log10() const;
  Tensor sinh() const;
  Tensor cosh() const;
  Tensor asin() const;  // Abramowitz and Stegun 4.4.46, as tinygrad
  Tensor acos() const;
  Tensor atan() const;
  Tensor logaddexp(const Tensor& y) const;
  Tensor lerp(const Tensor& end, const Tensor& weight) const;
  // uint8 with a tensor weight: tinygrad's fixed-point path (the weight in 1/128ths), giving uint8
  Tensor lerp_fixed_point(const Tensor& end, const Tensor& weight) const;  Tensor fmod(const Tensor& y) const;  // C's remainder: the sign of the dividend

  // convolution and pooling (core/tensor/conv.cpp), over the last len(kernel) dims. An Ints argument
  // holds one value for every spatial dim, or one per dim; a padding also (left, right, top, bottom, ...)
  // with the last dim first, as tinygrad and torch take it.
  using Ints = std::vector<int64_t>;
  Tensor conv2d(const Tensor& weight, const std::optional<Tensor>& bias = {}, int64_t groups = 1, const Ints& stride = {1},
                const Ints& dilation = {1}, const Ints& padding = {0}, std::optional<DType> dtype = {}) const;
  Tensor conv_transpose2d(const Tensor& weight, const std::optional<Tensor>& bias = {}, int64_t groups = 1,
                          const Ints& stride = {1}, const Ints& dilation = {1}, const Ints& padding = {0},
                          const Ints& output_padding = {0}) const;
  // stride {} is the kernel size
  Tensor max_pool2d(const Ints& kernel_size = {2, 2}, const Ints& stride = {}, const Ints& dilation = {1},
                    const Ints& padding = {0}, bool ceil_mode = false) const;
  // max_pool2d(return_indices=True): the maxima and, as int32, the flat index within the input's spatial
  // dims of the first maximum of each window
  std::pair<Tensor, Tensor> max_pool2d_with_indices(const Ints& kernel_size = {2, 2}, const Ints& stride = {},
                                                    const Ints& dilation = {1}, const Ints& padding = {0},
                                                    bool ceil_mode = false) const;
  // Each value put at its flat spatial index of an output of output_size (or the size max_pool2d's
  // arguments invert to), zeros elsewhere. The tensor is (batch, channels, spatial...).
  Tensor max_unpool2d(const Tensor& indices, const Ints& kernel_size = {2, 2}, const Ints& stride = {},
                      const Ints& dilation = {1}, const Ints& padding = {0}, const Ints& output_size = {}) const;
  Tensor avg_pool2d(const Ints& kernel_size = {2, 2}, const Ints& stride = {}, const Ints& dilation = {1},
                    const Ints& padding = {0}, bool ceil_mode = false, bool count_include_pad = true) const;
  // The sliding windows of the last len(kernel) dims: (..., out dims..., kernel dims...), tinygrad's _pool.
  Tensor pool(const Ints& kernel, const Ints& stride = {1}, const Ints& dilation = {1}) const;

  // resampling and attention (core/tensor/resize.cpp, core/tensor/attention.cpp)
  enum class Interpolation : uint8_t { Linear, Nearest, NearestExact };
  Tensor interpolate(const Ints& size, Interpolation mode = Interpolation::Linear, bool align_corners = false) const;
  // dropout_p drops attention weights (callers pass 0 outside training, as tinygrad's dropout does nothing there)
  Tensor scaled_dot_product_attention(const Tensor& key, const Tensor& value, const std::optional<Tensor>& attn_mask = {},
                                      bool is_causal = false, bool enable_gqa = false, double dropout_p = 0.0) const;

  // x @ weight + bias (x * weight for a 1-d weight), all cast to dtype first where given (core/tensor/linear.cpp)
  Tensor linear(const Tensor& weight, const std::optional<Tensor>& bias = {}, std::optional<DType> dtype = {}) const;
  // Zeroes each element with probability p and scales the rest by 1/(1-p), from the session's generator
  // (core/tensor/dropout.cpp). Always drops: tinygrad's training-mode check is the caller's.
  Tensor dropout(double p = 0.5) const;

  // normalisation (core/tensor/norm.cpp)
  Tensor layernorm(const std::vector<int>& axis = {-1}, double eps = 1e-5) const;
  Tensor batchnorm(const std::optional<Tensor>& weight, const std::optional<Tensor>& bias, const Tensor& mean,
                   const Tensor& invstd, const std::vector<int>& axis = {1}) const;

  // losses (core/tensor/loss.cpp); each ends in its reduction
  enum class Reduction : uint8_t { Mean, Sum, None };
  Tensor binary_crossentropy(const Tensor& y, Reduction reduction = Reduction::Mean) const;
  Tensor binary_crossentropy_logits(const Tensor& y, Reduction reduction = Reduction::Mean,
                                    const std::optional<Tensor>& pos_weight = {}) const;
  Tensor sparse_categorical_crossentropy(const Tensor& y, int64_t ignore_index = -1, double label_smoothing = 0.0,
                                         Reduction reduction = Reduction::Mean) const;
  Tensor cross_entropy(const Tensor& y, Reduction reduction = Reduction::Mean, double label_smoothing = 0.0) const;
  Tensor nll_loss(const Tensor& y, const std::optional<Tensor>& weight = {}, std::optional<int64_t> ignore_index = {},
                  Reduction reduction = Reduction::Mean) const;

  // random initialisers (core/tensor/random_init.cpp), from rand/randn's counter-based streams
  static Tensor uniform(const Shape& shape, double low = 0.0, double high = 1.0, std::optional<uint64_t> seed = {},
                        DType dtype = DType::Float32, const std::string& device = "");
  static Tensor normal(const Shape& shape, double mean = 0.0, double std = 1.0, std::optional<uint64_t> seed = {},
                       DType dtype = DType::Float32, const std::string& device = "");
  static Tensor randint(const Shape& shape, int64_t low = 0, int64_t high = 10, std::optional<uint64_t> seed = {},
                        DType dtype = DType::Int32, const std::string& device = "");
  static Tensor glorot_uniform(const Shape& shape, std::optional<uint64_t> seed = {}, DType dtype = DType::Float32,
                               const std::string& device = "");
  static Tensor kaiming_uniform(const Shape& shape, double a = 0.01, std::optional<uint64_t> seed = {}, DType dtype = DType::Float32,
                                const std::string& device = "");
  static Tensor kaiming_normal(const Shape& shape, double a = 0.01, std::optional<uint64_t> seed = {}, DType dtype = DType::Float32,
                               const std::string& device = "");
  // uniform in [-1, 1) times prod(shape)^-0.5
  static Tensor scaled_uniform(const Shape& shape, std::optional<uint64_t> seed = {}, DType dtype = DType::Float32,
                               const std::string& device = "");

  // several devices (core/tensor/multi.h): one piece of axis per device, or a whole copy on each
  // (no axis); every later op runs on each device
  Tensor shard(const std::vector<std::string>& devices, std::optional<int> axis = {}) const;
  bool is_multi() const;
  std::vector<Tensor> shards() const;  // one per device; a tensor on one device is its own only shard
  std::optional<int> shard_axis() const;

  // control
  Tensor contiguous() const;
  Tensor to(const std::string& device) const;
  Tensor& realize();           // runs what this tensor needs; the handle then reads a buffer
  // realize() for several tensors in one schedule; every copy of each then reads its buffer.
  static void realize_together(const std::vector<Tensor>& xs);
  HostData data() const;       // realizes and copies the values out, row-major
  ConstValue item() const;     // a one-element tensor to a number

  // gradients (core/grad), with tinygrad 0.14's semantics
  // The gradients of this scalar (or of `seed`, this tensor's gradient, when given) with respect to
  // each target; a target the graph does not reach gets zeros. Stores nothing.
  std::vector<Tensor> gradient(const std::vector<Tensor>& targets, const std::optional<Tensor>& seed = {}) const;
  // Fills .grad of every live float tensor in this one's graph, adding to a .grad already there.
  void backward(const std::optional<Tensor>& seed = {}) const;
  const std::optional<Tensor>& grad() const;
  void set_grad(std::optional<Tensor> g) const;
  bool is_param() const;
  void set_is_param(bool is_param) const;
  // A leaf with this tensor's values: gradients stop here. It realizes this tensor to read them.
  Tensor detach() const;
  // Makes this tensor (every copy of it) hold value's values, lazily as tinygrad's: an ASSIGN node whose
  // kernel writes the value into this tensor's buffer in place when it is realized, with everything
  // else of that schedule (so an optimizer step is one schedule). Once realized the tensor is a leaf
  // again. A tensor not realized yet becomes the value; a view of a realized tensor is written at once.
  void assign(const Tensor& value) const;
  // assign() for many at once, realized in one schedule.
  static void assign_all(const std::vector<Tensor>& targets, const std::vector<Tensor>& values);

  // Symbolic sizes (core/lazy/symbolic_shape.h): the dims whose entry is a Variable become that Variable,
  // bound to the dim's size now; its kernels take the value as an argument and serve every value.
  Tensor bind_sizes(const std::vector<ExprRef>& sym) const;
  // Per dim, its Variable or null; empty when no dim is symbolic.
  std::vector<ExprRef> symbolic_sizes() const;
  // The first sizes[k] elements of each dim k that sym names, that dim then being sym[k] bound to sizes[k].
  Tensor shrink_to(const std::vector<ExprRef>& sym, const Shape& sizes) const;

  Tensor broadcast_to(const Shape& shape) const;  // numpy's rule: align right, grow size-1 dims
  // Broadcasts both to a common shape and promotes to a common dtype (tinygrad's _broadcasted).
  static std::pair<Tensor, Tensor> broadcasted(const Tensor& x, const Tensor& y);

 private:
  Tensor reduce(Op op, const Axes& axis, bool keepdim) const;
  Tensor move(const ShapeTracker& st) const;
  // The tracker that movement ops start from: contiguous over this tensor's shape, its symbolic dims included.
  ShapeTracker tracker() const;
  Tensor unary(Op op) const;
  Tensor binary(Op op, const Tensor& y) const;  // same shape, same dtype
  explicit Tensor(std::shared_ptr<TensorState> state) : state_(std::move(state)) {}
  // Every Tensor state some handle still holds: what backward() looks for in a graph, as tinygrad's
  // all_tensors.
  static std::vector<Tensor> live();
  std::shared_ptr<TensorState> state_;
  friend class Jit;  // a replay reads and rebinds the tensors a capture saw (core/jit/jit.cpp)
};

struct TensorState {
  LazyRef node;
  std::optional<Tensor> grad;
  // tinygrad's is_param: false for a layer's buffers (BatchNorm's running statistics), which
  // nn.state.get_parameters lists and optimizers leave alone.
  bool is_param = true;
};

inline const LazyRef& Tensor::node() const { return state_->node; }

Shape broadcast_shape(const Shape& a, const Shape& b);  // throws "cannot broadcast (2, 3) with (4,)"
// Throws "operands are on CPU and OPENCL; move one with .to()" unless a and b are on one device.
void require_same_device(const Tensor& a, const Tensor& b);
Tensor where(const Tensor& c, const Tensor& a, const Tensor& b);
bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8);
// How many kernels realizing these tensors would run now, without running them.
int count_kernels(const std::vector<Tensor>& xs);
void realize_all(std::vector<Tensor>& xs);

}  // namespace tr
