// tinygrad 0.14's random initialisers, each an affine map of rand() or randn(): the counter-based
// streams of core/tensor/random.h, so a seed gives the same numbers on every run, device and backend.
#include <cmath>

#include "core/base/error.h"
#include "core/tensor/tensor.h"

namespace tr {
namespace {

// the product of every dim after the first: a weight's fan-in
double fan_in(const Shape& shape, std::string_view what) {
  if (shape.empty()) fail("shape", "{} needs a shape of at least one dim", what);
  double n = 1;
  for (size_t i = 1; i < shape.size(); i++) n *= static_cast<double>(shape[i]);
  return n;
}

}  // namespace

Tensor Tensor::uniform(const Shape& shape, double low, double high, std::optional<uint64_t> seed, DType dtype, const std::string& device) {
  if (!(low < high)) fail("value", "uniform requires low < high, got low={}, high={}", low, high);
  const Tensor r = rand(shape, seed, DType::Float32, device);
  const Tensor scaled = r.mul(scalar_like(r, high - low)).cast(dtype);
  return scaled.add(scalar_like(scaled, low));
}

Tensor Tensor::normal(const Shape& shape, double mean, double std, std::optional<uint64_t> seed, DType dtype, const std::string& device) {
  if (std < 0) fail("value", "normal requires std >= 0, got std={}", std);
  const Tensor r = randn(shape, seed, dtype, device);
  return r.mul(scalar_like(r, std)).add(scalar_like(r, mean));
}

Tensor Tensor::randint(const Shape& shape, int64_t low, int64_t high, std::optional<uint64_t> seed, DType dtype, const std::string& device) {
  if (!is_int(dtype)) fail("type", "randint needs an integer dtype, not {}", name(dtype));
  if (low >= high) fail("value", "randint requires low < high, got low={}, high={}", low, high);
  const Tensor r = rand(shape, seed, DType::Float32, device);
  const Tensor scaled = r.mul(scalar_like(r, static_cast<double>(high - low))).cast(dtype);
  return scaled.add(scalar_like(scaled, low));
}

Tensor Tensor::glorot_uniform(const Shape& shape, std::optional<uint64_t> seed, DType dtype, const std::string& device) {
  const double fan = fan_in(shape, "glorot_uniform");
  const double bound = std::sqrt(6.0 / (static_cast<double>(shape[0]) + fan));
  return uniform(shape, -bound, bound, seed, dtype, device);
}

Tensor Tensor::kaiming_uniform(const Shape& shape, double a, std::optional<uint64_t> seed, DType dtype, const std::string& device) {
  const double bound = std::sqrt(6.0 / (1 + a * a) / fan_in(shape, "kaiming_uniform"));
  return uniform(shape, -bound, bound, seed, dtype, device);
}

Tensor Tensor::kaiming_normal(const Shape& shape, double a, std::optional<uint64_t> seed, DType dtype, const std::string& device) {
  return normal(shape, 0.0, std::sqrt(2.0 / (1 + a * a) / fan_in(shape, "kaiming_normal")), seed, dtype, device);
}

Tensor Tensor::scaled_uniform(const Shape& shape, std::optional<uint64_t> seed, DType dtype, const std::string& device) {
  const Tensor u = uniform(shape, -1.0, 1.0, seed, dtype, device);
  return u.mul(scalar_like(u, std::pow(static_cast<double>(tr::prod(shape)), -0.5)));
}

}  // namespace tr
