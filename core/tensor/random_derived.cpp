#include "core/tensor/random_derived.h"

#include <numbers>

#include "core/base/error.h"
#include "core/tensor/scan.h"
#include "core/tensor/sort.h"

namespace tr {
namespace {

std::vector<std::optional<Range>> half_of(const Shape& shape, int64_t i) {
  std::vector<std::optional<Range>> cut(shape.size());
  cut[0] = Range{i, i + 1};
  return cut;
}

// Each of n draws counts the classes whose normalised cumulative weight it reaches: its class index.
Tensor drawn_by_cdf(const Tensor& w, int64_t n, std::optional<uint64_t> seed) {
  const int64_t classes = w.shape()[1];
  const Tensor cw = cumsum(w, 1).cast(DType::Float32);
  std::vector<std::optional<Range>> last(2);
  last[1] = Range{classes - 1, classes};
  const Tensor u = Tensor::rand({n, w.shape()[0], 1}, seed, DType::Float32, w.device());
  return u.ge(cw.div(cw.shrink(last))).sum(std::vector<int>{2}).permute({1, 0});
}

}  // namespace

Tensor rand_like(const Tensor& x, std::optional<DType> dtype, std::optional<uint64_t> seed) {
  const DType t = dtype.value_or(x.dtype());
  if (!is_float(t)) fail("type", "rand_like needs a float dtype, got {}", name(t));
  return Tensor::rand(x.shape(), seed, t, x.device());
}

Tensor randn_like(const Tensor& x, std::optional<DType> dtype, std::optional<uint64_t> seed) {
  Shape both = x.shape();
  both.insert(both.begin(), 2);
  const Tensor u = Tensor::rand(both, seed, DType::Float32, x.device());
  const Tensor angle = u.shrink(half_of(both, 0)).squeeze(0), radius = u.shrink(half_of(both, 1)).squeeze(0);
  const auto k = [&](double v) { return Tensor::scalar_like(u, v); };
  const Tensor r = k(1.0).sub(radius).log().mul(k(-2.0)).sqrt();
  return angle.mul(k(2 * std::numbers::pi)).cos().mul(r).cast(dtype.value_or(x.dtype()));
}

Tensor multinomial(const Tensor& x, int64_t num_samples, bool replacement, std::optional<uint64_t> seed) {
  if (x.ndim() < 1 || x.ndim() > 2) fail("shape", "multinomial needs 1 or 2 dims, got shape {}", shape_str(x.shape()));
  if (num_samples <= 0) fail("value", "multinomial's num_samples must be positive, got {}", num_samples);
  const Tensor w = x.ndim() == 1 ? x.unsqueeze(0) : x;
  const int64_t classes = w.shape()[1];
  if (classes == 0) fail("shape", "multinomial needs at least one class, got shape {}", shape_str(x.shape()));
  if (!replacement && num_samples > classes)
    fail("value", "multinomial without replacement cannot draw {} samples from {} classes", num_samples, classes);
  const Tensor indices = replacement || num_samples == 1 ? drawn_by_cdf(w, num_samples, seed)
                                                        : topk(rand_like(w, DType::Float32, seed).log2().div(w), num_samples, 1).second;
  return (x.ndim() == 1 ? indices.squeeze(0) : indices).cast(DType::Int32);
}

Tensor randperm(int64_t n, DType dtype, std::optional<uint64_t> seed, const std::string& device) {
  if (n < 0) fail("value", "randperm needs n >= 0, got {}", n);
  return argsort(Tensor::rand({n}, seed, DType::Float32, device)).cast(dtype);
}

}  // namespace tr
