// Creation functions. Constants, ranges and eye are computed inside kernels (CONST and ARANGE
// sources seen through views), so they fuse with whatever consumes them.
#include <cmath>

#include "core/base/context.h"
#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/base/interrupt.h"
#include "core/tensor/random.h"
#include "core/tensor/tensor.h"
#include "core/tensor/multi.h"

namespace tr {
namespace {

std::string resolve_device(const std::string& d) { return canonical_device(d.empty() ? settings().device : d); }

void check_shape(const Shape& shape) {
  for (int64_t s : shape)
    if (s < 0) fail("shape", "negative dimension in shape {}", shape_str(shape));
}

DType dtype_of(const ConstValue& v) {
  if (std::holds_alternative<bool>(v)) return DType::Bool;
  if (std::holds_alternative<int64_t>(v)) return DType::Int32;
  return DType::Float32;
}

// The range of an integer dtype, in 128 bits so that uint64's maximum fits.
__int128 int_min(DType t) { return is_unsigned(t) ? 0 : -(static_cast<__int128>(1) << (8 * itemsize(t) - 1)); }
__int128 int_max(DType t) { return (static_cast<__int128>(1) << (8 * itemsize(t) - (is_unsigned(t) ? 0 : 1))) - 1; }

Tensor broadcast_scalar(const LazyRef& scalar, const Shape& shape) {
  return Tensor(scalar).reshape(Shape(shape.size(), 1)).expand(shape);
}

}  // namespace

Tensor Tensor::from_host(HostData data, const Shape& shape, const std::string& device) {
  check_shape(shape);
  if (data.size() != tr::prod(shape))
    fail("shape", "{} values cannot fill shape {}", data.size(), shape_str(shape));
  const DType t = data.dtype;
  auto host = std::make_shared<const HostData>(std::move(data));
  const auto on = [&](const std::string& d) { return Tensor(make_node(Op::Copy, t, shape, resolve_device(d), {}, host)); };
  if (const auto m = replicated_on(device, on)) return *m;
  return on(device);
}

Tensor Tensor::full(const Shape& shape, ConstValue value, std::optional<DType> dtype, const std::string& device) {
  check_shape(shape);
  const DType t = dtype.value_or(dtype_of(value));
  if (const auto m = replicated_on(device, [&](const std::string& d) { return full(shape, value, t, d); })) return *m;
  const LazyRef c = make_node(Op::Const, t, {}, resolve_device(device), {}, cast_const(value, t));
  return broadcast_scalar(c, shape);
}

Tensor Tensor::zeros(const Shape& shape, DType dtype, const std::string& device) {
  return full(shape, int64_t{0}, dtype, device);
}

Tensor Tensor::ones(const Shape& shape, DType dtype, const std::string& device) {
  return full(shape, int64_t{1}, dtype, device);
}

Tensor Tensor::zero_of(const Tensor& x) { return full({}, int64_t{0}, x.dtype(), x.device()); }

Tensor Tensor::scalar_like(const Tensor& x, ConstValue v) {
  const bool keep = is_float(x.dtype()) || (is_int(x.dtype()) && std::holds_alternative<int64_t>(v));
  return full({}, v, keep ? x.dtype() : dtype_of(v), x.device());
}

Tensor Tensor::full_like(ConstValue v, std::optional<DType> dtype) const {
  return full(shape(), v, dtype.value_or(this->dtype()), device());
}
Tensor Tensor::zeros_like() const { return full_like(int64_t{0}); }
Tensor Tensor::ones_like() const { return full_like(int64_t{1}); }

Tensor Tensor::arange(ConstValue start, ConstValue stop, ConstValue step, std::optional<DType> dtype,
                      const std::string& device) {
  const bool all_int = !std::holds_alternative<double>(start) && !std::holds_alternative<double>(stop) &&
                       !std::holds_alternative<double>(step);
  const double s0 = as_double(start), s1 = as_double(stop), ds = as_double(step);
  if (ds == 0) fail("value", "arange step must not be zero");
  int64_t n = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((s1 - s0) / ds)));
  DType t = dtype.value_or(all_int ? DType::Int32 : DType::Float32);
  if (all_int) {
    // tinygrad's bounds, [start, stop - step] (the other way for a negative step), in 128 bits: an int
    // range past int32 takes int64, and one that the dtype asked for cannot hold is refused
    const __int128 a = as_int(start), b = as_int(stop), d = as_int(step);
    const __int128 lo = d > 0 ? a : b - d, hi = d > 0 ? b - d : a;
    const auto holds = [&](DType x) { return !is_int(x) || (int_min(x) <= lo && hi <= int_max(x)); };
    if (!dtype && !holds(t)) t = DType::Int64;
    if (!holds(t)) fail("value", "arange [{}, {}) is not representable in dtype {}", as_int(start), as_int(stop), name(t));
    const __int128 count = (b - a + d + (d > 0 ? -1 : 1)) / d;  // the ceiling of (b - a) / d
    n = count > 0 ? static_cast<int64_t>(count) : 0;
  }
  if (const auto m = replicated_on(device, [&](const std::string& d) { return arange(start, stop, step, t, d); })) return *m;
  const LazyRef idx = make_node(Op::Arange, t, {n}, resolve_device(device), {});
  const Tensor i(idx);
  return i.mul(full({}, step, t, i.device()).expand({n})).add(full({}, start, t, i.device()).expand({n}));
}

Tensor Tensor::linspace(ConstValue start, ConstValue stop, int64_t steps, DType dtype, const std::string& device) {
  if (steps < 0) fail("value", "linspace needs steps >= 0, got {}", steps);
  if (steps == 1) return full({1}, start, dtype, device);
  const double s0 = as_double(start), s1 = as_double(stop);
  const double step = steps > 1 ? (s1 - s0) / static_cast<double>(steps - 1) : 0.0;
  // tinygrad 0.14's: start + arange(steps) * step in the default float, then the dtype asked for (so
  // no backend needs float64 for it)
  return arange(int64_t{0}, steps, int64_t{1}, DType::Float32, device)
      .mul(full({}, step, DType::Float32, device).expand({steps}))
      .add(full({}, s0, DType::Float32, device).expand({steps}))
      .cast(dtype);
}

Tensor Tensor::eye(int64_t n, std::optional<int64_t> m, DType dtype, const std::string& device) {
  const int64_t cols = m.value_or(n);
  if (n < 0 || cols < 0) fail("value", "eye needs non-negative sizes, got ({}, {})", n, cols);
  const Tensor rows = arange(int64_t{0}, n, int64_t{1}, DType::Int32, device).reshape({n, 1}).expand({n, cols});
  const Tensor cs = arange(int64_t{0}, cols, int64_t{1}, DType::Int32, device).reshape({1, cols}).expand({n, cols});
  return rows.eq(cs).cast(dtype);
}

namespace {

// The values of one rand/randn call: its own stream from 0 with seed=, else the session's generator,
// advanced past the `per_element` uniforms each element takes.
template <double (*Draw)(uint64_t, uint64_t)>
Tensor drawn(const Shape& shape, std::optional<uint64_t> seed, DType dtype, const std::string& device,
             uint64_t per_element) {
  check_shape(shape);
  HostData data(dtype, tr::prod(shape));
  const uint64_t n = static_cast<uint64_t>(data.size());
  const uint64_t s = seed.value_or(generator().seed);
  const uint64_t first = seed ? 0 : advance_generator(n, per_element);
  // a draw of many millions takes seconds on the host (tens of seconds in a sanitizer build): Ctrl-C
  // must reach it
  constexpr uint64_t kChunk = uint64_t{1} << 20;
  for (uint64_t i = 0; i < n; i++) {
    if (i % kChunk == 0) check_interrupt();
    data.set(static_cast<int64_t>(i), Draw(s, first + i));
  }
  return Tensor::from_host(std::move(data), shape, device);
}

}  // namespace

Tensor Tensor::rand(const Shape& shape, std::optional<uint64_t> seed, DType dtype, const std::string& device) {
  return drawn<random_uniform>(shape, seed, dtype, device, 1);
}

Tensor Tensor::randn(const Shape& shape, std::optional<uint64_t> seed, DType dtype, const std::string& device) {
  return drawn<random_normal>(shape, seed, dtype, device, 2);
}

}  // namespace tr
