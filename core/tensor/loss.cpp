// The losses as tinygrad 0.14 writes them, each ending in reduction 'mean' (the default), 'sum' or
// 'none'. Class indices become one-hot compares against an arange, so every loss fuses and has a
// gradient through core/grad.
#include "core/base/error.h"
#include "core/tensor/tensor.h"

namespace tr {
namespace {

Tensor reduce_by(const Tensor& loss, Tensor::Reduction how) {
  switch (how) {
    case Tensor::Reduction::Mean: return loss.mean();
    case Tensor::Reduction::Sum: return loss.sum();
    case Tensor::Reduction::None: return loss;
  }
  return loss;
}

// y's class indices as a bool one-hot along a new dim `dim` of n classes.
Tensor class_one_hot(const Tensor& y, int64_t n, int dim) {
  if (!is_int(y.dtype())) fail("type", "class indices must be an integer tensor, not {}", name(y.dtype()));
  const Tensor idx = y.unsqueeze(dim);
  const int at = dim < 0 ? dim + idx.ndim() : dim;
  Shape classes(static_cast<size_t>(idx.ndim()), 1);
  classes[static_cast<size_t>(at)] = n;
  return idx.eq(Tensor::arange(int64_t{0}, n, int64_t{1}, y.dtype(), y.device()).reshape(classes));
}

void check_smoothing(double label_smoothing) {
  if (!(label_smoothing >= 0.0 && label_smoothing <= 1.0))
    fail("value", "label_smoothing must be in [0.0, 1.0], got {}", label_smoothing);
}

Tensor times(const Tensor& t, double c) { return t.mul(Tensor::scalar_like(t, c)); }

}  // namespace

Tensor Tensor::binary_crossentropy(const Tensor& y, Reduction reduction) const {
  const Tensor one = scalar_like(*this, int64_t{1});
  return reduce_by(y.neg().mul(log()).sub(one.sub(y).mul(one.sub(*this).log())), reduction);
}

Tensor Tensor::binary_crossentropy_logits(const Tensor& y, Reduction reduction, const std::optional<Tensor>& pos_weight) const {
  const Tensor log_p = logsigmoid(), log_not_p = neg().logsigmoid();
  const Tensor positive = (pos_weight ? pos_weight->mul(y) : y).mul(log_p);
  const Tensor negative = scalar_like(y, int64_t{1}).sub(y).mul(log_not_p);
  return reduce_by(positive.add(negative).neg(), reduction);
}

Tensor Tensor::sparse_categorical_crossentropy(const Tensor& y, int64_t ignore_index, double label_smoothing,
                                               Reduction reduction) const {
  check_smoothing(label_smoothing);
  require_same_device(*this, y);
  if (ndim() == 0) fail("shape", "sparse_categorical_crossentropy needs logits with a class axis, not a 0-d tensor");
  const Tensor log_probs = log_softmax();
  // as tinygrad: the default ignore_index -1 masks nothing
  const Tensor mask = ignore_index != -1 ? y.ne(scalar_like(y, ignore_index)) : full(y.shape(), true, DType::Bool, y.device());
  const Tensor target = class_one_hot(y, shape().back(), -1).mul(mask.unsqueeze(-1));
  const Tensor smoothing = times(log_probs.mean(std::vector<int>{-1}).mul(mask), label_smoothing);
  const Tensor unreduced = times(log_probs.mul(target).sum(std::vector<int>{-1}), 1 - label_smoothing).add(smoothing);
  if (reduction == Reduction::Mean) return unreduced.sum().neg().div(mask.sum());
  return reduce_by(unreduced, reduction).neg();
}

Tensor Tensor::cross_entropy(const Tensor& y, Reduction reduction, double label_smoothing) const {
  check_smoothing(label_smoothing);
  if (ndim() == 0) fail("shape", "cross_entropy needs logits with a class axis, not a 0-d tensor");
  const int classes = ndim() == 1 ? 0 : 1;
  Tensor target = y;
  if (shape() != y.shape()) {
    if (max(std::vector<int>{classes}).shape() != y.shape())
      fail("shape", "shape mismatch: logits {} and target {}", shape_str(shape()), shape_str(y.shape()));
    target = class_one_hot(y, shape()[static_cast<size_t>(classes)], classes);
  }
  const double n = static_cast<double>(target.shape()[static_cast<size_t>(classes)]);
  target = times(target, 1 - label_smoothing).add(scalar_like(log_softmax(classes), label_smoothing / n));
  return reduce_by(log_softmax(classes).mul(target).sum(std::vector<int>{classes}).neg(), reduction);
}

Tensor Tensor::nll_loss(const Tensor& y, const std::optional<Tensor>& weight, std::optional<int64_t> ignore_index,
                        Reduction reduction) const {
  if (ndim() < 2 || y.ndim() != ndim() - 1) {
    fail("shape", "nll_loss needs log-probabilities (N, C, ...) and targets (N, ...), got {} and {}", shape_str(shape()),
         shape_str(y.shape()));
  }
  const int classes = 1;
  const int64_t n = shape()[1];
  Tensor w = y.ones_like();
  if (weight) {
    if (weight->shape() != Shape{n}) fail("shape", "weight must have shape ({},), not {}", n, shape_str(weight->shape()));
    const Tensor flat = y.flatten();
    w = class_one_hot(flat, n, -1).where(*weight, scalar_like(*weight, int64_t{0})).sum(std::vector<int>{-1}).reshape(y.shape());
  }
  const Tensor masked = ignore_index ? w.mul(y.ne(scalar_like(y, *ignore_index))) : w;
  const Tensor picked =
      class_one_hot(y, n, classes).where(*this, scalar_like(*this, int64_t{0})).sum(std::vector<int>{classes});
  const Tensor nll = picked.neg().mul(masked);
  if (reduction == Reduction::Mean) return nll.sum().div(masked.sum());
  return reduce_by(nll, reduction);
}

}  // namespace tr
