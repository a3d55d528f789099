#include "core/tensor_random_derived.h"

#include <numbers>

#include "core/error.h"
#include "core/tensor_sort.h"

namespace tr {
namespace {

std::vector<std::optional<Range>> half_of(const Shape& shape, int64_t i) {
  std::vector<std::optional<Range>> cut(shape.size());
  cut[0] = Range{i, i + 1};
  return cut;
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

Tensor randperm(int64_t n, DType dtype, std::optional<uint64_t> seed, const std::string& device) {
  if (n < 0) fail("value", "randperm needs n >= 0, got {}", n);
  return argsort(Tensor::rand({n}, seed, DType::Float32, device)).cast(dtype);
}

}  // namespace tr
