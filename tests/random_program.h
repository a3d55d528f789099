#pragma once
// Random tensor programs (shapes, dtypes, op chains, movement ops, reduces), each built the same way
// for every device from its seed: the random-program suite and the program fuzzer (tests/fuzz) realize
// them on each device against the reference evaluator, and the default-opts invariant lowers every
// kernel of them for every target.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/tensor/tensor.h"
#include "tests/tensor_testing.h"

namespace tr::testing {

// Which values a program may compute. Any: whatever every device and the reference evaluator agree
// on, including what tinygrad 0.14 leaves undefined (an integer division by zero, a float cast to an
// integer type it does not fit); DefinedByTinygrad: only values tinygrad 0.14 defines, for the peer
// check: no bfloat16 (its CPU device cannot compile __bf16 with clang 14) and no 8-bit integers (its
// kernels compute them in C's int without wrapping between two ops of one kernel, so that a uint8 -15
// compares as -15, not 241; numpy and tinyrepl wrap).
enum class Values { Any, DefinedByTinygrad };

// One program, built the same way for every device from its seed; text() is the same program in .tg,
// which prints its result (inputs as literals). `bound` follows a rough bound of the values' magnitude
// so that the chain stays where float results are comparable (no sin of 1e30, no exp2 of 1e3); integer
// chains wrap freely, as every device and the reference agree on it.
class Generator {
 public:
  Generator(int seed, std::string device, Values values = Values::Any)
      : rng_(static_cast<uint64_t>(seed) * 7919 + 17), device_(std::move(device)), values_(values) {}

  Tensor build() {
    const std::vector<DType> kinds{DType::Float32, DType::Float32, DType::Float32, DType::Float32, DType::Int32,
                                   DType::Int32,   DType::Float16, DType::Float16, DType::Float64, DType::Int8,
                                   DType::UInt8,   DType::BFloat16};
    DType t = kinds[pick(kinds.size())];
    if (values_ == Values::DefinedByTinygrad && (t == DType::BFloat16 || t == DType::Int8 || t == DType::UInt8))
      t = is_float(t) ? DType::Float32 : DType::Int32;
    Tensor x = input(t, random_shape());
    const int steps = 2 + static_cast<int>(pick(5));
    for (int i = 0; i < steps; i++) {
      const size_t what = pick(100);
      if (what < 30) x = unary(x);
      else if (what < 60) x = binary(x);
      else if (what < 80) x = movement(x);
      else if (what < 92) x = reduce(x);
      else x = cast(x);
    }
    text_ += fmt::format("print({})\n", last());
    return x;
  }

  const std::string& text() const { return text_; }

 private:
  std::mt19937_64 rng_;
  std::string device_;
  Values values_;
  std::string text_;
  int names_ = 0;
  double bound_ = 2;  // of the current value x
  std::optional<double> scalar_;  // the second operand of a binary op, where it is a Python number

  size_t pick(size_t n) { return static_cast<size_t>(rng_() % n); }
  static const char* py(bool b) { return b ? "True" : "False"; }
  bool coin() { return rng_() & 1; }

  std::string note(const Tensor& t, const std::string& what) {
    const std::string name = fmt::format("x{}", names_++);
    text_ += fmt::format("{} = {}  # {} {}\n", name, what, shape_str(t.shape()), tr::name(t.dtype()));
    return name;
  }
  Tensor step(const Tensor& t, const std::string& what) {
    note(t, what);
    return t;
  }
  std::string last() const { return fmt::format("x{}", names_ - 1); }

  Shape random_shape() {
    static const std::vector<int64_t> sizes{1, 2, 3, 4, 5, 7, 8, 16, 32};
    Shape s(1 + pick(4));
    for (int64_t& d : s) d = sizes[pick(sizes.size())];
    while (prod(s) > 4096) s[pick(s.size())] = 2;
    return s;
  }

  // Inputs come from the host onto the device, a third of them through the CPU and .to().
  Tensor input(DType t, const Shape& shape) {
    const bool via_cpu = pick(3) == 0;
    const double lo = t == DType::UInt8 ? 0 : is_float(t) ? -2 : -20, hi = is_float(t) ? 2 : 20;
    const auto values = random_values(rng_, prod(shape), t, lo, hi);
    HostData d(t, prod(shape));
    for (size_t i = 0; i < values.size(); i++)
      d.set(static_cast<int64_t>(i), is_float(t) ? ConstValue{values[i]} : ConstValue{static_cast<int64_t>(values[i])});
    Tensor x = Tensor::from_host(std::move(d), shape, via_cpu ? "CPU" : device_);
    if (via_cpu) x = x.to(device_);
    bound_ = std::max(std::abs(lo), std::abs(hi));
    // doubles print as the shortest text that reads back as themselves, and each is a value of t
    return step(x, fmt::format("tensor([{}], dtype={}).reshape({})", fmt::join(values, ", "), tr::name(t), shape_str(shape)));
  }

  // A second operand: a fresh input of x's shape or of a shape that broadcasts to it, or a scalar.
  Tensor operand(const Tensor& x, double& other_bound) {
    if (pick(4) == 0) {
      const double v = is_float(x.dtype()) ? std::round((static_cast<double>(pick(400)) / 100 - 2) * 4) / 4
                                           : static_cast<double>(pick(9)) - 4;
      other_bound = std::abs(v);
      scalar_ = v;
      const ConstValue c = is_float(x.dtype()) ? ConstValue{v} : ConstValue{static_cast<int64_t>(v)};
      return step(Tensor::scalar_like(x, c), fmt::format("{}", v));
    }
    Shape s = x.shape();
    for (int64_t& d : s)
      if (pick(3) == 0) d = 1;
    const double saved = bound_;
    Tensor y = input(x.dtype(), s);
    other_bound = bound_;
    bound_ = saved;
    return y;
  }

  Tensor unary(const Tensor& x) {
    const std::string n = last();
    if (x.dtype() == DType::Bool) return step(x.logical_not(), n + ".logical_not()");
    if (!is_float(x.dtype())) {
      switch (pick(3)) {
        case 0: return step(x.neg(), n + ".neg()");
        case 1: return step(x.abs(), n + ".abs()");
        default: return step(x.relu(), n + ".relu()");
      }
    }
    const double b = bound_;
    switch (pick(14)) {
      case 0: return step(x.neg(), n + ".neg()");
      case 1:
        if (b > 8) break;
        bound_ = std::exp2(b);
        return step(x.exp2(), n + ".exp2()");
      case 2:
        bound_ = std::log2(b + 0.5) + 2;
        return step(x.abs().add(Tensor::scalar_like(x, 0.5)).log2(), n + ".abs().add(0.5).log2()");
      case 3:
        bound_ = std::sqrt(b);
        return step(x.abs().sqrt(), n + ".abs().sqrt()");
      case 4:
        if (b > 50) break;
        bound_ = 1;
        return step(x.sin(), n + ".sin()");
      case 5:
        bound_ = 1;
        return step(x.square().add(Tensor::scalar_like(x, 1.0)).reciprocal(), n + ".square().add(1).reciprocal()");
      case 6: return step(x.relu(), n + ".relu()");
      case 7:
        bound_ = 1;
        return step(x.sigmoid(), n + ".sigmoid()");
      case 8:
        bound_ = 1;
        return step(x.tanh(), n + ".tanh()");
      case 9: return step(x.trunc(), n + ".trunc()");
      case 10: return step(x.floor(), n + ".floor()");
      case 11: return step(x.ceil(), n + ".ceil()");
      case 12:
        if (b > 100) break;
        bound_ = b * b;
        return step(x.square(), n + ".square()");
      default: break;
    }
    return step(x.abs(), n + ".abs()");
  }

  Tensor binary(const Tensor& x) {
    // bool arithmetic is refused (x - y) or promotes a Python operand to int: a bool x is negated instead
    if (x.dtype() == DType::Bool) return unary(x);
    const std::string n = last();
    double ob = 0;
    scalar_.reset();
    const Tensor y = operand(x, ob);
    const std::string m = last();
    const double b = bound_;
    bound_ = std::max(b, ob);
    switch (pick(8)) {
      case 0: bound_ = b + ob; return step(x.add(y), fmt::format("{}.add({})", n, m));
      case 1: bound_ = b + ob; return step(x.sub(y), fmt::format("{}.sub({})", n, m));
      case 2: bound_ = b * ob; return step(x.mul(y), fmt::format("{}.mul({})", n, m));
      case 3: return step(x.maximum(y), fmt::format("{}.maximum({})", n, m));
      case 4: return step(x.minimum(y), fmt::format("{}.minimum({})", n, m));
      case 5: return step(x.lt(y).where(x, y), fmt::format("({} < {}).where({}, {})", n, m, n, m));
      case 6:
        if (is_float(x.dtype())) {
          bound_ = b * 2;
          return step(x.div(y.abs().add(Tensor::scalar_like(y, 0.5))), fmt::format("{}.div({} + 0.5)", n, abs_text(m)));
        }
        bound_ = b;
        return step(x.floordiv(divisor(y)), fmt::format("{} // {}", n, divisor_text(m)));
      default:
        if (is_float(x.dtype())) return step(x.ne(y).where(x, y.neg()), fmt::format("({} != {}).where({}, -{})", n, m, n, m));
        return step(x.mod(divisor(y)), fmt::format("{} % {}", n, divisor_text(m)));
    }
  }

  // An integer divisor. A zero one is allowed where every device and the reference give the same
  // result for it; tinygrad 0.14 leaves it undefined, so its peer programs divide by |y| + 1.
  Tensor divisor(const Tensor& y) const {
    return values_ == Values::Any ? y : y.abs().add(Tensor::scalar_like(y, ConstValue{int64_t{1}}));
  }
  std::string divisor_text(const std::string& y) const {
    return values_ == Values::Any ? y : fmt::format("({} + 1)", abs_text(y));
  }
  // |y| for the second operand y: a Python number's is written out (tinygrad's Tensor has no __abs__)
  std::string abs_text(const std::string& y) const {
    return scalar_ ? fmt::format("{}", std::abs(*scalar_)) : y + ".abs()";
  }

  Tensor movement(const Tensor& x) {
    const std::string n = last();
    const Shape& s = x.shape();
    const int nd = x.ndim();
    if (nd == 0) return step(x.reshape({1, 1}).expand({2, 3}), n + ".reshape((1,1)).expand((2,3))");
    switch (pick(7)) {
      case 0: {
        std::vector<int> order(nd);
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), rng_);
        return step(x.permute(order), fmt::format("{}.permute({})", n, fmt::join(order, ",")));
      }
      case 1: {
        if (nd < 2) break;
        const size_t d = pick(nd - 1);
        Shape r;
        for (int i = 0; i < nd; i++) {
          if (static_cast<size_t>(i) == d + 1) r.back() *= s[i];
          else r.push_back(s[i]);
        }
        return step(x.reshape(r), fmt::format("{}.reshape({})", n, shape_str(r)));
      }
      case 2: {
        if (prod(s) * 3 > 8192) break;
        const int d = static_cast<int>(pick(nd + 1));
        Shape e = s;
        e.insert(e.begin() + d, 3);
        return step(x.unsqueeze(d).expand(e), fmt::format("{}.unsqueeze({}).expand({})", n, d, shape_str(e)));
      }
      case 3: {
        std::vector<Range> pads(nd, {0, 0});
        const size_t d = pick(nd);
        pads[d] = {static_cast<int64_t>(pick(3)), static_cast<int64_t>(pick(3))};
        return step(x.pad(pads), fmt::format("{}.pad({})", n, per_dim(nd, d, fmt::format("({}, {})", pads[d].first, pads[d].second))));
      }
      case 4: {
        const size_t d = pick(nd);
        if (s[d] < 2) break;
        const int64_t a = static_cast<int64_t>(pick(s[d] - 1)), b = a + 1 + static_cast<int64_t>(pick(s[d] - a - 1));
        std::vector<std::optional<Range>> bounds(nd);
        bounds[d] = Range{a, b};
        return step(x.shrink(bounds), fmt::format("{}.shrink({})", n, per_dim(nd, d, fmt::format("({}, {})", a, b))));
      }
      case 5: {
        const int d = static_cast<int>(pick(nd));
        return step(x.flip({d}), fmt::format("{}.flip({})", n, d));
      }
      default:
        if (nd < 2) break;
        return step(x.transpose(0, nd - 1), fmt::format("{}.transpose(0, {})", n, nd - 1));
    }
    return step(x.flip({0}), n + ".flip(0)");
  }

  // pad's and shrink's argument: `pair` at dim d, None at the others
  static std::string per_dim(int nd, size_t d, const std::string& pair) {
    std::vector<std::string> items(nd, "None");
    items[d] = pair;
    return fmt::format("({}{})", fmt::join(items, ", "), nd == 1 ? "," : "");
  }

  Tensor reduce(const Tensor& x) {
    const std::string n = last();
    const int nd = x.ndim();
    if (nd == 0) return unary(x);
    Axes axes;
    std::string axes_text = "None";
    if (nd > 1 && coin()) {
      const int a = static_cast<int>(pick(nd));
      axes = std::vector<int>{a};
      axes_text = std::to_string(a);
    }
    const bool keep = coin();
    int64_t count = 1;
    if (axes) count = x.shape()[(*axes)[0]];
    else count = x.numel();
    // the last three read a reduce's result back along its rows: several reduces in one kernel
    const int axis = axes ? (*axes)[0] : nd - 1;
    const size_t what = pick(7);
    if (what >= 4 && x.dtype() == DType::Bool) return step(x.max(axes, keep), fmt::format("{}.max({}, keepdim={})", n, axes_text, py(keep)));
    switch (what) {
      case 0:
        bound_ *= static_cast<double>(count);
        return step(x.sum(axes, keep), fmt::format("{}.sum({}, keepdim={})", n, axes_text, py(keep)));
      case 1: return step(x.max(axes, keep), fmt::format("{}.max({}, keepdim={})", n, axes_text, py(keep)));
      case 2: return step(x.min(axes, keep), fmt::format("{}.min({}, keepdim={})", n, axes_text, py(keep)));
      case 3: return step(x.mean(axes, keep), fmt::format("{}.mean({}, keepdim={})", n, axes_text, py(keep)));
      case 4:
        bound_ *= 2;
        return step(x.sub(x.max(axes, true)), fmt::format("{}.sub({}.max({}, keepdim=True))", n, n, axes_text));
      case 5:
        if (!is_float(x.dtype())) return step(x.sub(x.min(axes, true)), fmt::format("{}.sub({}.min({}, keepdim=True))", n, n, axes_text));
        bound_ = 1;
        return step(x.softmax(axis), fmt::format("{}.softmax({})", n, axis));
      default:
        if (!is_float(x.dtype())) return step(x.max(axes, keep), fmt::format("{}.max({}, keepdim={})", n, axes_text, py(keep)));
        bound_ *= bound_;
        return step(x.var(axes, keep), fmt::format("{}.var({}, keepdim={})", n, axes_text, py(keep)));
    }
  }

  Tensor cast(const Tensor& x) {
    const std::string n = last();
    const std::vector<DType> to{DType::Float32, DType::Float16, DType::Int32, DType::Int8,
                                DType::UInt8,   DType::Float64, DType::Bool,  DType::BFloat16};
    DType t = to[pick(to.size())];
    if (is_float(x.dtype()) && is_int(t) && bound_ > 1e9) t = DType::Float32;
    if (values_ == Values::DefinedByTinygrad) {
      // no 8-bit integers and no bfloat16 (see Values); a float fits int32 (bound_ is at most 1e9)
      if (t == DType::Int8 || t == DType::UInt8) t = DType::Int32;
      if (t == DType::BFloat16) t = DType::Float32;
      // tinygrad 0.14 folds a float16 result's cast to a wider float into its computation, skipping
      // the rounding to float16 that numpy and tinyrepl do (tests/peer/run_peer.py's EXCLUSIONS)
      if (x.dtype() == DType::Float16 && (t == DType::Float32 || t == DType::Float64)) t = DType::Int32;
    }
    if (t == DType::Bool) bound_ = 1;
    if (t == DType::Int8 || t == DType::UInt8) bound_ = std::min(bound_, 255.0);
    return step(x.cast(t), fmt::format("{}.cast({})", n, tr::name(t)));
  }
};

// How a random program's values are judged against the reference evaluator's.
inline int float_digits(DType t) {
  const std::array<std::pair<DType, int>, 4> digits{{{DType::BFloat16, 8}, {DType::Float16, 11}, {DType::Float32, 24}, {DType::Float64, 53}}};
  for (auto [f, d] : digits)
    if (f == t) return d;
  return 64;
}

// The least precise float dtype anywhere in x's graph: a float64 result computed from float32
// values carries float32's error.
inline DType least_precise_float(const LazyRef& x) {
  DType least = DType::Float64;
  std::vector<const LazyNode*> todo{x.get()}, seen;
  while (!todo.empty()) {
    const LazyNode* n = todo.back();
    todo.pop_back();
    if (std::find(seen.begin(), seen.end(), n) != seen.end()) continue;
    seen.push_back(n);
    if (is_float(n->dtype) && float_digits(n->dtype) < float_digits(least)) least = n->dtype;
    for (const LazyRef& s : n->srcs) todo.push_back(s.get());
  }
  return least;
}

// Floats within a relative tolerance and an absolute one scaled by the largest expected value (a
// reduce sums in another order on each device), at the precision of the least precise float the
// program computes in; integers and bools exactly.
inline ::testing::AssertionResult agrees(const HostData& actual, const HostData& expected, DType precision) {
  if (actual.dtype != expected.dtype)
    return ::testing::AssertionFailure() << "dtype " << name(actual.dtype) << ", reference " << name(expected.dtype);
  const std::vector<double> a = values(actual), e = values(expected);
  double scale = 1;
  for (double v : e)
    if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
  Tolerance tol;
  switch (is_float(expected.dtype) ? precision : expected.dtype) {
    case DType::Float16: tol = {1e-2, 1e-2 * scale}; break;
    case DType::BFloat16: tol = {5e-2, 5e-2 * scale}; break;
    case DType::Float32: tol = {1e-4, 1e-5 * scale}; break;
    case DType::Float64: tol = {1e-9, 1e-12 * scale}; break;
    default: break;
  }
  return all_close(a, e, tol);
}

// What a device lacks (PoCL's float16, Metal's float64, WGSL's 64-bit types, a WebGPU adapter's
// float16) makes its own error; the test skips then.
inline bool lacks_dtype(const Error& e) {
  const std::string m = e.what();
  return (e.kind() == "compile" && (m.find("has no cl_khr_fp16") != std::string::npos ||
                                    m.find("has no cl_khr_fp64") != std::string::npos ||
                                    m.find("has no shader-f16") != std::string::npos)) ||
         (e.kind() == "type" && (m.starts_with("Metal has no float64") || m.starts_with("WGSL has no")));
}

}  // namespace tr::testing
