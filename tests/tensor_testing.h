#pragma once
// Helpers shared by the tensor suites: making inputs from plain values, reading results back,
// comparing them with the reference evaluator (or with values computed in the test) at a tolerance
// that fits each dtype, checking errors, and running under NOOPT or the default opts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/base/context.h"
#include "core/base/error.h"
#include "core/reference/reference.h"
#include "core/tensor/tensor.h"

namespace tr::testing {

// ---- making and reading tensors -------------------------------------------------------------

inline Tensor tensor(const std::vector<double>& values, const Shape& shape, DType dtype = DType::Float32) {
  HostData d(dtype, static_cast<int64_t>(values.size()));
  for (size_t i = 0; i < values.size(); i++) {
    const double v = values[i];
    const bool integral = !is_float(dtype) && std::trunc(v) == v;
    d.set(static_cast<int64_t>(i), integral ? ConstValue{static_cast<int64_t>(v)} : ConstValue{v});
  }
  return Tensor::from_host(std::move(d), shape);
}

inline Tensor tensor(const std::vector<double>& values, DType dtype = DType::Float32) {
  return tensor(values, {static_cast<int64_t>(values.size())}, dtype);
}

inline std::vector<double> values(const HostData& d) {
  std::vector<double> out;
  for (int64_t i = 0; i < d.size(); i++) out.push_back(as_double(d.get(i)));
  return out;
}

// Realizes t and reads its values, row-major.
inline std::vector<double> values(const Tensor& t) { return values(t.data()); }

inline double scalar(const Tensor& t) { return as_double(t.item()); }

// Deterministic values for an input of dtype t: uniform in [lo, hi] (integers for int dtypes,
// a fair coin for bool). Values within `avoid` of zero are pushed away from it, for divisors.
inline std::vector<double> random_values(std::mt19937_64& rng, int64_t n, DType t, double lo, double hi,
                                         double avoid = 0) {
  std::vector<double> out;
  for (int64_t i = 0; i < n; i++) {
    double v;
    if (t == DType::Bool) {
      v = static_cast<double>(rng() & 1);
    } else if (is_float(t)) {
      v = std::uniform_real_distribution<double>(lo, hi)(rng);
      if (std::abs(v) < avoid) v = v < 0 ? -avoid : avoid;
    } else {
      v = static_cast<double>(std::uniform_int_distribution<int64_t>(static_cast<int64_t>(std::ceil(lo)),
                                                                     static_cast<int64_t>(std::floor(hi)))(rng));
      if (std::abs(v) < avoid) v = v < 0 ? -std::ceil(avoid) : std::ceil(avoid);
    }
    out.push_back(round_to(t, v));
  }
  return out;
}

// ---- comparing ------------------------------------------------------------------------------

struct Tolerance {
  double rtol = 0, atol = 0;
};

// Exact for integers and bools; a relative tolerance with an absolute floor for floats.
inline Tolerance tolerance_for(DType t) {
  switch (t) {
    case DType::Float16: return {2e-3, 2e-3};
    case DType::BFloat16: return {1e-2, 1e-2};
    case DType::Float32: return {1e-5, 1e-5};
    case DType::Float64: return {1e-9, 1e-12};
    default: return {0, 0};
  }
}

// NaN equals NaN, an infinity equals the same infinity.
inline bool close(double actual, double expected, Tolerance tol) {
  if (std::isnan(expected) || std::isnan(actual)) return std::isnan(expected) && std::isnan(actual);
  if (std::isinf(expected) || std::isinf(actual)) return actual == expected;
  return std::abs(actual - expected) <= tol.atol + tol.rtol * std::abs(expected);
}

inline ::testing::AssertionResult all_close(const std::vector<double>& actual, const std::vector<double>& expected,
                                            Tolerance tol) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << actual.size() << " values, expected " << expected.size();
  int bad = 0;
  std::string report;
  for (size_t i = 0; i < actual.size(); i++) {
    if (close(actual[i], expected[i], tol)) continue;
    if (bad++ < 8) report += fmt::format("\n  [{}] got {} expected {}", i, actual[i], expected[i]);
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << actual.size() << " values differ (rtol " << tol.rtol
                                       << ", atol " << tol.atol << "):" << report;
}

// t's values (realized on its device) against values computed in the test, and t's dtype.
inline ::testing::AssertionResult has_values(const Tensor& t, const std::vector<double>& expected,
                                             std::optional<Tolerance> tol = {}) {
  try {
    return all_close(values(t), expected, tol.value_or(tolerance_for(t.dtype())));
  } catch (const Error& e) {
    return ::testing::AssertionFailure() << "realizing threw " << e.kind() << " error: " << e.what();
  }
}

// Realizes t on its device and compares every element with reference_eval of the same graph.
inline ::testing::AssertionResult matches_reference(const Tensor& t, std::optional<Tolerance> tol = {}) {
  try {
    const HostData expected = reference_eval(t.node());
    const HostData actual = t.data();
    if (actual.dtype != expected.dtype)
      return ::testing::AssertionFailure() << "dtype " << name(actual.dtype) << ", reference " << name(expected.dtype);
    return all_close(values(actual), values(expected), tol.value_or(tolerance_for(t.dtype())));
  } catch (const Error& e) {
    return ::testing::AssertionFailure() << "threw " << e.kind() << " error: " << e.what();
  }
}

// ---- errors ---------------------------------------------------------------------------------

// f() throws tr::Error of this kind whose message contains `part` (or equals it when exact).
template <typename F>
::testing::AssertionResult throws(F&& f, std::string_view kind, std::string_view part, bool exact = false) {
  try {
    f();
  } catch (const Error& e) {
    const std::string msg = e.what();
    const bool text_ok = exact ? msg == part : msg.find(part) != std::string::npos;
    if (e.kind() == kind && text_ok) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "threw " << e.kind() << " error \"" << msg << "\"; expected " << kind
                                         << (exact ? " error \"" : " error containing \"") << part << "\"";
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw a non-tr::Error: " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw; expected " << kind << " error \"" << part << "\"";
}

// ---- settings -------------------------------------------------------------------------------

enum class Opts { Noopt, Default };

inline auto both_opts() { return ::testing::Values(Opts::Noopt, Opts::Default); }
inline std::string opts_str(Opts o) { return o == Opts::Noopt ? "Noopt" : "DefaultOpts"; }
inline std::string opts_name(const ::testing::TestParamInfo<Opts>& info) { return opts_str(info.param); }

// Sets NOOPT (and no BEAM) for a scope, restoring the settings after.
class ScopedOpts {
 public:
  explicit ScopedOpts(Opts o) : saved_(settings()) {
    settings().noopt = o == Opts::Noopt;
    settings().beam = 0;
  }
  ~ScopedOpts() { settings() = saved_; }
  ScopedOpts(const ScopedOpts&) = delete;
  ScopedOpts& operator=(const ScopedOpts&) = delete;

 private:
  Settings saved_;
};

}  // namespace tr::testing
