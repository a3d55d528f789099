// Every tensor operation of SPEC section 2 on the CPU device, under NOOPT and the default opts:
// against the reference evaluator, and against values worked out here independently of the engine
// (plain loops over indices, the C library, Python's rules written out).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <numeric>
#include <ostream>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/reference/reference.h"
#include "core/tensor/tensor.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using namespace tr::testing;
using std::nullopt;

constexpr DType F16 = DType::Float16, BF16 = DType::BFloat16, F32 = DType::Float32, F64 = DType::Float64;
constexpr DType I8 = DType::Int8, U8 = DType::UInt8, I16 = DType::Int16, I32 = DType::Int32, U32 = DType::UInt32,
                I64 = DType::Int64, Bool = DType::Bool;

// ---- an independent n-d array: the expected side of movement, indexing and reduction checks ----

std::vector<int64_t> unravel(int64_t i, const Shape& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = i % shape[d];
    i /= shape[d];
  }
  return idx;
}

int64_t ravel(const std::vector<int64_t>& idx, const Shape& shape) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); d++) flat = flat * shape[d] + idx[d];
  return flat;
}

struct Nd {
  Shape shape;
  std::vector<double> v;

  static Nd of(const Shape& shape, const std::function<double(const std::vector<int64_t>&)>& f) {
    Nd out{shape, {}};
    for (int64_t i = 0; i < prod(shape); i++) out.v.push_back(f(unravel(i, shape)));
    return out;
  }
  double at(const std::vector<int64_t>& idx) const { return v[ravel(idx, shape)]; }
};

Nd nd_of(const Tensor& t) { return Nd{t.shape(), values(t)}; }

::testing::AssertionResult equals_nd(const Tensor& t, const Nd& expected, std::optional<Tolerance> tol = {}) {
  if (t.shape() != expected.shape)
    return ::testing::AssertionFailure() << "shape " << shape_str(t.shape()) << ", expected "
                                         << shape_str(expected.shape);
  return has_values(t, expected.v, tol);
}

// Both the reference evaluator and the values computed here.
void expect_matches(const Tensor& t, const Nd& expected, std::optional<Tolerance> tol = {}) {
  EXPECT_TRUE(equals_nd(t, expected, tol));
  EXPECT_TRUE(matches_reference(t));
}

Tensor iota(const Shape& shape, DType dtype = F32, double start = 1) {
  std::vector<double> v(prod(shape));
  std::iota(v.begin(), v.end(), start);
  return tensor(v, shape, dtype);
}

Tensor random_tensor(const Shape& shape, DType dtype, double lo, double hi, uint64_t seed, double avoid = 0) {
  std::mt19937_64 rng(seed);
  return tensor(random_values(rng, prod(shape), dtype, lo, hi, avoid), shape, dtype);
}

std::string axes_str(const Axes& axes) {
  if (!axes) return "None";
  if (axes->size() == 1) return fmt::format("({},)", (*axes)[0]);
  return fmt::format("({})", fmt::join(*axes, ", "));
}

// Reduces x over `axes` (None: all) with f, which sees each group in row-major order.
Nd reduce_nd(const Nd& x, const Axes& axes, bool keepdim, const std::function<double(const std::vector<double>&)>& f) {
  const int nd = static_cast<int>(x.shape.size());
  std::vector<bool> reduced(nd, !axes.has_value());
  if (axes)
    for (int a : *axes) reduced[a < 0 ? a + nd : a] = true;
  Shape kept = x.shape;
  for (int d = 0; d < nd; d++)
    if (reduced[d]) kept[d] = 1;
  std::vector<std::vector<double>> groups(prod(kept));
  for (int64_t i = 0; i < prod(x.shape); i++) {
    std::vector<int64_t> idx = unravel(i, x.shape);
    for (int d = 0; d < nd; d++)
      if (reduced[d]) idx[d] = 0;
    groups[ravel(idx, kept)].push_back(x.v[i]);
  }
  Nd out{kept, {}};
  for (const auto& g : groups) out.v.push_back(f(g));
  if (!keepdim) {
    out.shape.clear();
    for (int d = 0; d < nd; d++)
      if (!reduced[d]) out.shape.push_back(x.shape[d]);
  }
  return out;
}

// Applies f to every 1-D lane along `axis`, keeping the shape.
Nd along_axis(const Nd& x, int axis, const std::function<std::vector<double>(const std::vector<double>&)>& f) {
  const int nd = static_cast<int>(x.shape.size());
  const int a = axis < 0 ? axis + nd : axis;
  Nd out{x.shape, std::vector<double>(x.v.size())};
  for (int64_t i = 0; i < prod(x.shape); i++) {
    std::vector<int64_t> idx = unravel(i, x.shape);
    if (idx[a] != 0) continue;
    std::vector<double> lane;
    for (idx[a] = 0; idx[a] < x.shape[a]; idx[a]++) lane.push_back(x.at(idx));
    const std::vector<double> r = f(lane);
    for (idx[a] = 0; idx[a] < x.shape[a]; idx[a]++) out.v[ravel(idx, x.shape)] = r[idx[a]];
  }
  return out;
}

double sum_of(const std::vector<double>& g) { return std::accumulate(g.begin(), g.end(), 0.0); }
double mean_of(const std::vector<double>& g) { return sum_of(g) / static_cast<double>(g.size()); }
double var_of(const std::vector<double>& g, double correction) {
  const double m = mean_of(g);
  double s = 0;
  for (double x : g) s += (x - m) * (x - m);
  return s / std::max(0.0, static_cast<double>(g.size()) - correction);
}
double first_argmax(const std::vector<double>& g) {
  return static_cast<double>(std::max_element(g.begin(), g.end()) - g.begin());  // the first of equal maxima
}

// Python's // and % on numbers: the quotient rounds down, the remainder takes the divisor's sign.
double py_floordiv(double a, double b) { return std::floor(a / b); }
double py_mod(double a, double b) { return a - std::floor(a / b) * b; }
int64_t py_floordiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t py_mod(int64_t a, int64_t b) { return a - py_floordiv(a, b) * b; }

// ---- the suites run once under NOOPT and once with the default opts ----

// "exp_Noopt": a table case's name and the opts it runs under
template <typename Case>
std::string case_name(const ::testing::TestParamInfo<std::tuple<Opts, Case>>& info) {
  return fmt::format("{}_{}", std::get<1>(info.param).name, opts_str(std::get<0>(info.param)));
}

class Ops : public ::testing::TestWithParam<Opts> {
 protected:
  ScopedOpts opts_{GetParam()};
};
INSTANTIATE_TEST_SUITE_P(Cpu, Ops, both_opts(), opts_name);

// ================================================================================================
// Element-wise unary operations
// ================================================================================================

struct UnaryCase {
  const char* name;
  Tensor (*op)(const Tensor&);
  double (*expect)(double);
  double lo, hi;                // inputs span [lo, hi] ...
  std::vector<double> inputs;   // ... unless given here
};

void PrintTo(const UnaryCase& c, std::ostream* os) { *os << c.name; }

double sigmoid_of(double x) { return 1 / (1 + std::exp(-x)); }

const std::vector<double> kRoundingInputs{-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -1.7, 1.2, 0.0, 3.5, -3.49, 2.51};

const UnaryCase kUnary[] = {
    {"neg", [](const Tensor& x) { return x.neg(); }, [](double x) { return -x; }, -3, 3, {}},
    {"exp", [](const Tensor& x) { return x.exp(); }, [](double x) { return std::exp(x); }, -4, 4, {}},
    {"exp2", [](const Tensor& x) { return x.exp2(); }, [](double x) { return std::exp2(x); }, -4, 4, {}},
    {"log", [](const Tensor& x) { return x.log(); }, [](double x) { return std::log(x); }, 0.1, 20, {}},
    {"log2", [](const Tensor& x) { return x.log2(); }, [](double x) { return std::log2(x); }, 0.1, 20, {}},
    {"sqrt", [](const Tensor& x) { return x.sqrt(); }, [](double x) { return std::sqrt(x); }, 0, 20, {}},
    {"rsqrt", [](const Tensor& x) { return x.rsqrt(); }, [](double x) { return 1 / std::sqrt(x); }, 0.1, 20, {}},
    {"sin", [](const Tensor& x) { return x.sin(); }, [](double x) { return std::sin(x); }, -6, 6, {}},
    {"cos", [](const Tensor& x) { return x.cos(); }, [](double x) { return std::cos(x); }, -6, 6, {}},
    {"tan", [](const Tensor& x) { return x.tan(); }, [](double x) { return std::tan(x); }, -1.2, 1.2, {}},
    {"relu", [](const Tensor& x) { return x.relu(); }, [](double x) { return std::max(0.0, x); }, -3, 3, {}},
    {"sigmoid", [](const Tensor& x) { return x.sigmoid(); }, sigmoid_of, -6, 6, {}},
    {"tanh", [](const Tensor& x) { return x.tanh(); }, [](double x) { return std::tanh(x); }, -4, 4, {}},
    {"gelu",
     [](const Tensor& x) { return x.gelu(); },
     [](double x) { return 0.5 * x * (1 + std::tanh(std::sqrt(2 / std::numbers::pi) * (x + 0.044715 * x * x * x))); },
     -4,
     4,
     {}},
    {"silu", [](const Tensor& x) { return x.silu(); }, [](double x) { return x * sigmoid_of(x); }, -6, 6, {}},
    {"abs", [](const Tensor& x) { return x.abs(); }, [](double x) { return std::abs(x); }, -3, 3, {}},
    {"sign",
     [](const Tensor& x) { return x.sign(); },
     [](double x) { return static_cast<double>((x > 0) - (x < 0)); },
     -3,
     3,
     {-2.5, -1, -0.0, 0, 0.25, 3, -0.5, 2, 1, -3, 0.5, -1.5}},
    {"reciprocal", [](const Tensor& x) { return x.reciprocal(); }, [](double x) { return 1 / x; }, 0.25, 8, {}},
    {"square", [](const Tensor& x) { return x.square(); }, [](double x) { return x * x; }, -5, 5, {}},
    {"floor", [](const Tensor& x) { return x.floor(); }, [](double x) { return std::floor(x); }, 0, 0, kRoundingInputs},
    {"ceil", [](const Tensor& x) { return x.ceil(); }, [](double x) { return std::ceil(x); }, 0, 0, kRoundingInputs},
    {"trunc", [](const Tensor& x) { return x.trunc(); }, [](double x) { return std::trunc(x); }, 0, 0, kRoundingInputs},
    // half to even, as std::nearbyint in the default rounding mode
    {"round", [](const Tensor& x) { return x.round(); }, [](double x) { return std::nearbyint(x); }, 0, 0,
     kRoundingInputs},
};

class Unary : public ::testing::TestWithParam<std::tuple<Opts, UnaryCase>> {
 protected:
  ScopedOpts opts_{std::get<0>(GetParam())};
  const UnaryCase& op() const { return std::get<1>(GetParam()); }
  std::vector<double> inputs(int n) const {
    if (!op().inputs.empty()) return op().inputs;
    std::vector<double> v;
    for (int i = 0; i < n; i++) v.push_back(op().lo + (op().hi - op().lo) * i / (n - 1));
    return v;
  }
};

INSTANTIATE_TEST_SUITE_P(Cpu, Unary, ::testing::Combine(both_opts(), ::testing::ValuesIn(kUnary)),
                         case_name<UnaryCase>);

// Float inputs: the result keeps the dtype and agrees with the C library's function.
TEST_P(Unary, FloatsMatchTheLibraryAndTheReference) {
  for (DType t : {F32, F16, F64}) {
    SCOPED_TRACE(name(t));
    const Tensor x = tensor(inputs(12), {3, 4}, t);
    const Tensor y = op().op(x);
    EXPECT_EQ(y.dtype(), t);
    std::vector<double> expected;
    for (double v : values(x)) expected.push_back(op().expect(v));
    // composites (tanh, gelu, tan, ...) round after each primitive: allow a few ulps of the dtype
    const Tolerance tol = t == F16 ? Tolerance{1e-2, 2e-3} : t == F32 ? Tolerance{2e-6, 1e-6} : Tolerance{1e-12, 1e-14};
    EXPECT_TRUE(has_values(y, expected, tol));
    EXPECT_TRUE(matches_reference(y));
  }
}

// Integer inputs: math functions give float32, the others keep the integer dtype.
TEST_P(Unary, IntegersMatchTheReference) {
  static const std::set<std::string> keep_int{"neg",   "relu", "abs",   "sign", "square",
                                              "floor", "ceil", "trunc", "round"};
  std::vector<double> ints;
  for (double v : inputs(12)) ints.push_back(std::round(v));
  for (DType t : {I32, I8, I64}) {
    SCOPED_TRACE(name(t));
    const Tensor x = tensor(ints, {2, 6}, t);
    const Tensor y = op().op(x);
    EXPECT_EQ(y.dtype(), keep_int.count(op().name) ? t : F32);
    std::vector<double> expected;
    for (double v : ints) expected.push_back(op().expect(v));
    EXPECT_TRUE(has_values(y, expected, Tolerance{2e-6, 1e-6}));
    EXPECT_TRUE(matches_reference(y));
  }
}

TEST_P(Ops, CastConvertsLikeC) {
  const Tensor f = tensor({-2.7, -0.5, 0.0, 0.5, 2.7, 100.25}, F32);
  EXPECT_TRUE(has_values(f.cast(I32), {-2, 0, 0, 0, 2, 100}));  // truncates toward zero
  EXPECT_TRUE(has_values(f.cast(Bool), {1, 1, 0, 1, 1, 1}));
  EXPECT_TRUE(has_values(f.cast(F16), {-2.69921875, -0.5, 0, 0.5, 2.69921875, 100.25}));
  const double f27 = static_cast<double>(2.7f);  // float32's 2.7, exactly
  EXPECT_TRUE(has_values(f.cast(F64), {-f27, -0.5, 0, 0.5, f27, 100.25}, Tolerance{}));
  const Tensor i = tensor({-129, -1, 0, 1, 200, 300}, I32);
  EXPECT_TRUE(has_values(i.cast(I8), {127, -1, 0, 1, -56, 44}));  // wraps to the width
  EXPECT_TRUE(has_values(i.cast(U8), {127, 255, 0, 1, 200, 44}));
  EXPECT_TRUE(has_values(i.cast(Bool), {1, 1, 0, 1, 1, 1}));
  EXPECT_TRUE(has_values(i.cast(F32), {-129, -1, 0, 1, 200, 300}));
  const Tensor b = tensor({1, 0, 1}, Bool);
  EXPECT_TRUE(has_values(b.cast(F32), {1, 0, 1}));
  EXPECT_TRUE(has_values(b.cast(I8), {1, 0, 1}));
  EXPECT_TRUE(has_values(tensor({0.1}, F32).cast(F16), {0.0999755859375}, Tolerance{}));
  for (const Tensor& t : {f.cast(I32), f.cast(F16), i.cast(I8), i.cast(U8), b.cast(F32)})
    EXPECT_TRUE(matches_reference(t));
  EXPECT_EQ(f.cast(F32).node(), f.node()) << "casting to the same dtype is the identity";
}

TEST_P(Ops, LogicalNotOfEveryDtype) {
  EXPECT_TRUE(has_values(tensor({1, 0, 1}, Bool).logical_not(), {0, 1, 0}));
  EXPECT_TRUE(has_values(tensor({-2, 0, 3}, I32).logical_not(), {0, 1, 0}));
  EXPECT_TRUE(has_values(tensor({0.5, 0, -0.0}, F32).logical_not(), {0, 1, 1}));
  EXPECT_EQ(tensor({0.5}, F32).logical_not().dtype(), Bool);
  EXPECT_TRUE(matches_reference(tensor({-2, 0, 3}, I8).logical_not()));
}

// NaN and infinities go through element-wise ops as in C.
TEST_P(Ops, SpecialFloatValues) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const Tensor x = tensor({-1, 0, inf, -inf, nan}, F32);
  EXPECT_TRUE(has_values(x.log(), {nan, -inf, inf, nan, nan}));
  EXPECT_TRUE(has_values(x.sqrt(), {nan, 0, inf, nan, nan}));
  EXPECT_TRUE(has_values(x.exp(), {std::exp(-1.0), 1, inf, 0, nan}, Tolerance{1e-6, 0}));
  EXPECT_TRUE(has_values(x.reciprocal(), {-1, inf, 0, -0.0, nan}));
  EXPECT_TRUE(has_values(x.relu(), {0, 0, inf, 0, 0}));  // nan > 0 is false
  EXPECT_TRUE(matches_reference(x.log().add(x.sqrt())));
}

// ================================================================================================
// Element-wise binary operations
// ================================================================================================

enum Domain : unsigned { kFloats = 1, kInts = 2, kBools = 4 };

struct BinaryCase {
  const char* name;
  Tensor (*op)(const Tensor&, const Tensor&);
  double (*expect)(double, double);
  unsigned domains;
  bool nonzero_rhs;  // the right operand is a divisor
  bool positive_lhs;
};

void PrintTo(const BinaryCase& c, std::ostream* os) { *os << c.name; }

const BinaryCase kBinary[] = {
    {"add", [](const Tensor& a, const Tensor& b) { return a.add(b); }, [](double a, double b) { return a + b; },
     kFloats | kInts, false, false},
    {"sub", [](const Tensor& a, const Tensor& b) { return a.sub(b); }, [](double a, double b) { return a - b; },
     kFloats | kInts, false, false},
    {"mul", [](const Tensor& a, const Tensor& b) { return a.mul(b); }, [](double a, double b) { return a * b; },
     kFloats | kInts, false, false},
    {"div", [](const Tensor& a, const Tensor& b) { return a.div(b); }, [](double a, double b) { return a / b; },
     kFloats | kInts, true, false},
    {"floordiv", [](const Tensor& a, const Tensor& b) { return a.floordiv(b); },
     [](double a, double b) { return py_floordiv(a, b); }, kFloats | kInts, true, false},
    {"mod", [](const Tensor& a, const Tensor& b) { return a.mod(b); }, [](double a, double b) { return py_mod(a, b); },
     kFloats | kInts, true, false},
    {"pow", [](const Tensor& a, const Tensor& b) { return a.pow(b); },
     [](double a, double b) { return std::pow(a, b); }, kFloats, false, true},
    {"maximum", [](const Tensor& a, const Tensor& b) { return a.maximum(b); },
     [](double a, double b) { return std::max(a, b); }, kFloats | kInts | kBools, false, false},
    {"minimum", [](const Tensor& a, const Tensor& b) { return a.minimum(b); },
     [](double a, double b) { return std::min(a, b); }, kFloats | kInts | kBools, false, false},
    {"eq", [](const Tensor& a, const Tensor& b) { return a.eq(b); }, [](double a, double b) { return double(a == b); },
     kFloats | kInts | kBools, false, false},
    {"ne", [](const Tensor& a, const Tensor& b) { return a.ne(b); }, [](double a, double b) { return double(a != b); },
     kFloats | kInts | kBools, false, false},
    {"lt", [](const Tensor& a, const Tensor& b) { return a.lt(b); }, [](double a, double b) { return double(a < b); },
     kFloats | kInts | kBools, false, false},
    {"le", [](const Tensor& a, const Tensor& b) { return a.le(b); }, [](double a, double b) { return double(a <= b); },
     kFloats | kInts | kBools, false, false},
    {"gt", [](const Tensor& a, const Tensor& b) { return a.gt(b); }, [](double a, double b) { return double(a > b); },
     kFloats | kInts | kBools, false, false},
    {"ge", [](const Tensor& a, const Tensor& b) { return a.ge(b); }, [](double a, double b) { return double(a >= b); },
     kFloats | kInts | kBools, false, false},
    {"logical_and", [](const Tensor& a, const Tensor& b) { return a.logical_and(b); },
     [](double a, double b) { return double(int64_t(a) & int64_t(b)); }, kInts | kBools, false, false},
    {"logical_or", [](const Tensor& a, const Tensor& b) { return a.logical_or(b); },
     [](double a, double b) { return double(int64_t(a) | int64_t(b)); }, kInts | kBools, false, false},
    {"bitwise_xor", [](const Tensor& a, const Tensor& b) { return a.bitwise_xor(b); },
     [](double a, double b) { return double(int64_t(a) ^ int64_t(b)); }, kInts | kBools, false, false},
};

class Binary : public ::testing::TestWithParam<std::tuple<Opts, BinaryCase>> {
 protected:
  ScopedOpts opts_{std::get<0>(GetParam())};
  const BinaryCase& op() const { return std::get<1>(GetParam()); }

  // a (3, 4) against b broadcast from `b_shape`, both of dtype t, checked element by element.
  void check(DType ta, DType tb, const Shape& b_shape, uint64_t seed) {
    SCOPED_TRACE(fmt::format("{} {} with {} {}", name(ta), "(3, 4)", name(tb), shape_str(b_shape)));
    const bool floats = is_float(ta) || is_float(tb);
    const double lo = op().positive_lhs ? 0.5 : floats ? -4 : -9, hi = floats ? 4 : 9;
    const Tensor a = random_tensor({3, 4}, ta, lo, hi, seed);
    const Tensor b = random_tensor(b_shape, tb, op().positive_lhs ? -2 : lo, op().positive_lhs ? 2 : hi, seed + 1,
                                   op().nonzero_rhs ? 1 : 0);
    const Tensor y = op().op(a, b);
    const Nd na = nd_of(a), nb = nd_of(b);
    const Nd expected = Nd::of({3, 4}, [&](const std::vector<int64_t>& i) {
      std::vector<int64_t> j(b_shape.size());
      for (size_t d = 0; d < b_shape.size(); d++) j[d] = b_shape[d] == 1 ? 0 : i[i.size() - b_shape.size() + d];
      const double r = op().expect(na.at(i), nb.at(j));
      return is_float(y.dtype()) ? r : static_cast<double>(wrap_to(y.dtype(), static_cast<int64_t>(r)));
    });
    const Tolerance tol = y.dtype() == F16 ? Tolerance{1e-2, 4e-3} : tolerance_for(y.dtype());
    const std::string n = op().name;
    if (!floats && (n == "floordiv" || n == "mod")) {
      // integer // and %: Python's rules on exact integers
      Nd exact = Nd::of({3, 4}, [&](const std::vector<int64_t>& i) {
        std::vector<int64_t> j(b_shape.size());
        for (size_t d = 0; d < b_shape.size(); d++) j[d] = b_shape[d] == 1 ? 0 : i[i.size() - b_shape.size() + d];
        const auto x = static_cast<int64_t>(na.at(i)), z = static_cast<int64_t>(nb.at(j));
        return static_cast<double>(n == "mod" ? py_mod(x, z) : py_floordiv(x, z));
      });
      EXPECT_TRUE(equals_nd(y, exact));
    } else {
      EXPECT_TRUE(equals_nd(y, expected, tol));
    }
    EXPECT_TRUE(matches_reference(y));
  }
};

INSTANTIATE_TEST_SUITE_P(Cpu, Binary, ::testing::Combine(both_opts(), ::testing::ValuesIn(kBinary)),
                         case_name<BinaryCase>);

TEST_P(Binary, Floats) {
  if (!(op().domains & kFloats)) GTEST_SKIP() << op().name << " is not defined on floats";
  check(F32, F32, {3, 4}, 1);
  check(F32, F32, {4}, 2);
  check(F32, F32, {3, 1}, 3);
  check(F16, F16, {3, 4}, 4);
  check(F64, F32, {1, 4}, 5);
  check(F16, I32, {4}, 6);  // mixed: promotes to half
}

TEST_P(Binary, Integers) {
  if (!(op().domains & kInts)) GTEST_SKIP() << op().name << " is not defined on integers";
  check(I32, I32, {3, 4}, 11);
  check(I32, I32, {4}, 12);
  check(I8, I32, {3, 1}, 13);  // promotes to int32
  check(I64, I8, {3, 4}, 14);
  check(I8, I8, {3, 4}, 15);
}

TEST_P(Binary, Bools) {
  if (!(op().domains & kBools)) GTEST_SKIP() << op().name << " is not defined on bools";
  check(Bool, Bool, {3, 4}, 21);
  check(Bool, Bool, {3, 1}, 22);
}

TEST_P(Ops, WhereBroadcastsAndPromotes) {
  const Tensor cond = tensor({1, 0, 1}, {3, 1}, Bool);
  const Tensor a = iota({3, 4}, I32);
  const Tensor b = tensor({-0.5}, {1}, F32);
  const Tensor y = where(cond, a, b);
  EXPECT_EQ(y.dtype(), F32);
  expect_matches(
      y, Nd::of({3, 4}, [&](const std::vector<int64_t>& i) { return i[0] != 1 ? 1.0 + i[0] * 4 + i[1] : -0.5; }));
  // a non-bool condition means "non-zero"
  const Tensor z = tensor({0, 2, -1}, I32).where(tensor({1, 1, 1}, I32), tensor({7, 7, 7}, I32));
  EXPECT_TRUE(has_values(z, {7, 1, 1}));
  EXPECT_TRUE(matches_reference(z));
}

TEST_P(Ops, PowSpecialCases) {
  const Tensor base = tensor({-2, -2, -2, 0, 0, 2, 4}, F32);
  const Tensor e = tensor({3, 2, 0.5, 0, 2, -1, 0.5}, F32);
  EXPECT_TRUE(has_values(base.pow(e), {-8, 4, std::nan(""), 1, 0, 0.5, 2}, Tolerance{1e-6, 1e-6}));
  EXPECT_TRUE(matches_reference(base.pow(e)));
  // integer ** integer stays an integer
  const Tensor i = tensor({-3, -1, 0, 2, 5}, I32);
  EXPECT_EQ(i.pow(tensor({3, 3, 3, 3, 3}, I32)).dtype(), I32);
  EXPECT_TRUE(has_values(i.pow(tensor({3, 3, 3, 3, 3}, I32)), {-27, -1, 0, 8, 125}));
  // a constant exponent multiplies exactly, in the operands' promoted dtype, as tinygrad's rules rewrite it
  EXPECT_TRUE(has_values(i.pow(ConstValue{int64_t{2}}), {9, 1, 0, 4, 25}));
  EXPECT_EQ(values(tensor({2}, I32).pow(ConstValue{int64_t{30}})), std::vector<double>{1073741824});
  EXPECT_EQ(values(tensor({10}, DType::Int64).pow(ConstValue{int64_t{15}})), std::vector<double>{1e15});
  EXPECT_EQ(tensor({3}, DType::UInt8).pow(ConstValue{int64_t{7}}).dtype(), DType::UInt8);
  EXPECT_EQ(values(tensor({3}, DType::UInt8).pow(ConstValue{int64_t{7}})), std::vector<double>{139});  // 2187 wraps
  EXPECT_EQ(i.pow(ConstValue{2.0}).dtype(), F32);
  EXPECT_THROW(i.pow(ConstValue{int64_t{-1}}), Error);  // tinygrad: "base needs to be float"
  EXPECT_TRUE(has_values(i.rpow(ConstValue{int64_t{3}}), {0, 0, 1, 9, 243}));  // exact, where tinygrad truncates 242.99998
  const Tensor f = tensor({1234.5, -3}, F32);
  EXPECT_EQ(values(f.pow(ConstValue{int64_t{2}}).eq(f.mul(f))), (std::vector<double>{1, 1}));
  EXPECT_TRUE(has_values(tensor({4, 9, 2.25}).pow(ConstValue{0.5}), {2, 3, 1.5}));
  EXPECT_TRUE(has_values(tensor({4, 0.5}).pow(ConstValue{-1.0}), {0.25, 2}));
  EXPECT_TRUE(has_values(tensor({4, 0.25}).pow(ConstValue{1.5}), {8, 0.125}));
  EXPECT_TRUE(has_values(tensor({3, -2}).pow(ConstValue{0.0}), {1, 1}));
  EXPECT_TRUE(has_values(tensor({0, 1, 3}).rpow(ConstValue{2.0}), {1, 2, 8}, Tolerance{1e-6, 1e-6}));
  EXPECT_TRUE(has_values(tensor({1, 2, 3}).rpow(ConstValue{-2.0}), {-2, 4, -8}, Tolerance{1e-6, 1e-6}));
}

// ================================================================================================
// Promotion and result dtypes (tinygrad's rules)
// ================================================================================================

TEST(DTypes, ResultDtypesFollowTinygrad) {
  const Tensor i32 = iota({4}, I32), i8 = iota({4}, I8), u8 = iota({4}, U8), i64 = iota({4}, I64);
  const Tensor f16 = iota({4}, F16), f32 = iota({4}, F32), f64 = iota({4}, F64), b = tensor({1, 0, 1, 1}, Bool);
  const Tensor bf16 = iota({4}, BF16);
  struct Rule {
    const char* what;
    Tensor t;
    DType expected;
  };
  const Rule rules[] = {
      {"int32 / int32", i32.div(i32), F32},
      {"int32 // int32", i32.floordiv(i32), I32},
      {"int8 + int32", i8.add(i32), I32},
      {"uint8 + int8", u8.add(i8), I16},
      {"int64 + float16", i64.add(f16), F16},
      {"int64 + bfloat16", i64.add(bf16), BF16},
      {"float16 + bfloat16", f16.add(bf16), F32},
      {"bfloat16 * float32", bf16.mul(f32), F32},
      {"bfloat16.sum()", bf16.sum(), BF16},
      {"bool + int8", b.add(i8), I8},
      {"bool + bool", b.add(b), Bool},
      {"float32 + float64", f32.add(f64), F64},
      {"float16 * float32", f16.mul(f32), F32},
      {"int32 < int32", i32.lt(i32), Bool},
      {"float32 == float32", f32.eq(f32), Bool},
      {"int32 * 2.5", i32.mul(Tensor::scalar_like(i32, 2.5)), F32},
      {"int8 * 2", i8.mul(Tensor::scalar_like(i8, int64_t{2})), I8},
      {"float16 * 2.5", f16.mul(Tensor::scalar_like(f16, 2.5)), F16},
      {"bool * 2", b.mul(Tensor::scalar_like(b, int64_t{2})), I32},
      {"exp(int32)", i32.exp(), F32},
      {"sqrt(int8)", i8.sqrt(), F32},
      {"exp(float16)", f16.exp(), F16},
      {"sigmoid(int32)", i32.sigmoid(), F32},
      {"relu(int32)", i32.relu(), I32},
      {"abs(uint8)", u8.abs(), U8},
      {"floor(int32)", i32.floor(), I32},
      {"neg(bool)", b.neg(), Bool},
      {"sum(bool)", b.sum(), I32},
      {"sum(int8)", i8.sum(), I32},
      {"sum(uint8)", u8.sum(), U32},
      {"sum(int64)", i64.sum(), I64},
      {"sum(float16)", f16.sum(), F16},
      {"prod(int8)", i8.prod(), I8},  // tinygrad's prod keeps the dtype
      {"prod(float16)", f16.prod(), F16},
      {"max(int8)", i8.max(), I8},
      {"min(uint8)", u8.min(), U8},
      {"mean(int32)", i32.mean(), F32},
      {"mean(bool)", b.mean(), F32},
      {"mean(float16)", f16.mean(), F16},
      {"mean(float64)", f64.mean(), F64},
      {"var(int32)", i32.var(), F32},
      {"std(float16)", f16.std(), F16},
      {"argmax(float32)", f32.argmax(), I32},
      {"argmin(int8)", i8.argmin(), I32},
      {"softmax(int32)", i32.softmax(), F32},
      {"log_softmax(float16)", f16.log_softmax(), F16},
      {"cat(int32, float32)", i32.cat({f32}), F32},
      {"cat(bool, int8)", b.cat({i8}), I8},
      {"where(bool, int32, float32)", where(b, i32, f32), F32},
      {"int8 @ int8", i8.reshape({2, 2}).matmul(i8.reshape({2, 2})), I8},
      {"arange(5)", Tensor::arange(int64_t{0}, int64_t{5}), I32},
      {"arange(0, 1, 0.25)", Tensor::arange(int64_t{0}, int64_t{1}, 0.25), F32},
      {"eye(3)", Tensor::eye(3), F32},
      {"linspace(0, 1, 5)", Tensor::linspace(int64_t{0}, int64_t{1}, 5), F32},
      {"full((2,), 2)", Tensor::full({2}, int64_t{2}), I32},
      {"full((2,), 2.5)", Tensor::full({2}, 2.5), F32},
      {"full((2,), True)", Tensor::full({2}, true), Bool},
      {"zeros_like(int8)", i8.zeros_like(), I8},
      {"ones_like(bool)", b.ones_like(), Bool},
      {"rand", Tensor::rand({2}), F32},
  };
  for (const Rule& r : rules) {
    EXPECT_EQ(name(r.t.dtype()), name(r.expected)) << r.what;
    EXPECT_TRUE(matches_reference(r.t)) << r.what;
  }
}

// ================================================================================================
// Reductions
// ================================================================================================

struct ReduceCase {
  const char* name;
  Tensor (*op)(const Tensor&, const Axes&, bool);
  double (*expect)(const std::vector<double>&);
  bool floats_only;
  double lo, hi;
};

void PrintTo(const ReduceCase& c, std::ostream* os) { *os << c.name; }

const ReduceCase kReduce[] = {
    {"sum", [](const Tensor& x, const Axes& a, bool k) { return x.sum(a, k); }, sum_of, false, -3, 3},
    {"max", [](const Tensor& x, const Axes& a, bool k) { return x.max(a, k); },
     [](const std::vector<double>& g) { return *std::max_element(g.begin(), g.end()); }, false, -3, 3},
    {"min", [](const Tensor& x, const Axes& a, bool k) { return x.min(a, k); },
     [](const std::vector<double>& g) { return *std::min_element(g.begin(), g.end()); }, false, -3, 3},
    {"mean", [](const Tensor& x, const Axes& a, bool k) { return x.mean(a, k); }, mean_of, false, -3, 3},
    {"var", [](const Tensor& x, const Axes& a, bool k) { return x.var(a, k); },
     [](const std::vector<double>& g) { return var_of(g, 1); }, false, -3, 3},
    {"var_correction0", [](const Tensor& x, const Axes& a, bool k) { return x.var(a, k, 0); },
     [](const std::vector<double>& g) { return var_of(g, 0); }, false, -3, 3},
    {"std", [](const Tensor& x, const Axes& a, bool k) { return x.std(a, k); },
     [](const std::vector<double>& g) { return std::sqrt(var_of(g, 1)); }, false, -3, 3},
    {"prod", [](const Tensor& x, const Axes& a, bool k) { return x.prod(a, k); },
     [](const std::vector<double>& g) { return std::accumulate(g.begin(), g.end(), 1.0, std::multiplies<>()); }, false,
     -1.5, 1.5},
    {"logsumexp", [](const Tensor& x, const Axes& a, bool k) { return x.logsumexp(a, k); },
     [](const std::vector<double>& g) {
       double s = 0;
       for (double x : g) s += std::exp(x);
       return std::log(s);
     },
     true, -3, 3},
};

const std::vector<Axes> kAxes{nullopt,
                              std::vector<int>{0},
                              std::vector<int>{1},
                              std::vector<int>{2},
                              std::vector<int>{-1},
                              std::vector<int>{0, 2},
                              std::vector<int>{-1, 0},
                              std::vector<int>{0, 1, 2},
                              std::vector<int>{}};

class Reduce : public ::testing::TestWithParam<std::tuple<Opts, ReduceCase>> {
 protected:
  ScopedOpts opts_{std::get<0>(GetParam())};
  const ReduceCase& op() const { return std::get<1>(GetParam()); }

  void check(DType t, uint64_t seed) {
    const Tensor x = random_tensor({2, 3, 4}, t, op().lo, op().hi, seed);
    const Nd nx = nd_of(x);
    for (const Axes& axes : kAxes)
      for (bool keepdim : {false, true}) {
        SCOPED_TRACE(fmt::format("{}.{}(axis={}, keepdim={})", name(t), op().name, axes_str(axes), keepdim));
        const Tensor y = op().op(x, axes, keepdim);
        const Nd expected = reduce_nd(nx, axes, keepdim, op().expect);
        Nd expected_in_dtype = expected;
        if (!is_float(y.dtype()))  // integer results wrap to their width
          for (double& v : expected_in_dtype.v) v = static_cast<double>(wrap_to(y.dtype(), static_cast<int64_t>(v)));
        const Tolerance tol = y.dtype() == BF16     ? Tolerance{5e-2, 5e-2}
                              : y.dtype() == F16    ? Tolerance{2e-2, 1e-2}
                              : is_float(y.dtype()) ? Tolerance{1e-5, 1e-5}
                                                    : Tolerance{};
        EXPECT_TRUE(equals_nd(y, expected_in_dtype, tol));
        EXPECT_TRUE(matches_reference(y));
      }
  }
};

INSTANTIATE_TEST_SUITE_P(Cpu, Reduce, ::testing::Combine(both_opts(), ::testing::ValuesIn(kReduce)),
                         case_name<ReduceCase>);

TEST_P(Reduce, Float32) { check(F32, 31); }
TEST_P(Reduce, Float16) { check(F16, 32); }
TEST_P(Reduce, BFloat16) { check(BF16, 35); }
TEST_P(Reduce, Int32) {
  if (op().floats_only) GTEST_SKIP();
  check(I32, 33);
}
TEST_P(Reduce, Int8) {
  if (op().floats_only) GTEST_SKIP();
  check(I8, 34);
}

TEST_P(Ops, ArgmaxAndArgminPickTheFirstExtreme) {
  // few distinct values: many ties
  const Tensor x = random_tensor({3, 4, 5}, I32, 0, 3, 41);
  const Nd nx = nd_of(x);
  const auto first_argmin = [](const std::vector<double>& g) {
    return static_cast<double>(std::min_element(g.begin(), g.end()) - g.begin());
  };
  for (std::optional<int> axis :
       {std::optional<int>{}, std::optional<int>{0}, std::optional<int>{1}, std::optional<int>{-1}})
    for (bool keepdim : {false, true}) {
      SCOPED_TRACE(fmt::format("axis={} keepdim={}", axis ? std::to_string(*axis) : "None", keepdim));
      const Axes axes = axis ? Axes{std::vector<int>{*axis}} : Axes{};
      const bool keep = keepdim && axis;  // argmax over every axis gives a scalar
      expect_matches(x.argmax(axis, keepdim), reduce_nd(nx, axes, keep, first_argmax));
      expect_matches(x.argmin(axis, keepdim), reduce_nd(nx, axes, keep, first_argmin));
    }
  EXPECT_EQ(std::get<int64_t>(tensor({1, 5, 5, 2}).argmax().item()), 1);
  EXPECT_EQ(std::get<int64_t>(tensor({3, 0, 7, 0}).argmin().item()), 1);
  EXPECT_EQ(std::get<int64_t>(tensor({-1, -5, -5, -2}, I8).argmin().item()), 1);
  EXPECT_EQ(std::get<int64_t>(tensor({0, 1, 1}, Bool).argmax().item()), 1);
}

TEST_P(Ops, SoftmaxFamilyAlongEachAxis) {
  const Tensor x = random_tensor({2, 3, 4}, F32, -4, 4, 51);
  const Nd nx = nd_of(x);
  const auto softmax = [](const std::vector<double>& lane) {
    const double m = *std::max_element(lane.begin(), lane.end());
    std::vector<double> e;
    for (double v : lane) e.push_back(std::exp(v - m));
    const double s = sum_of(e);
    for (double& v : e) v /= s;
    return e;
  };
  const auto log_softmax = [&](const std::vector<double>& lane) {
    std::vector<double> p = softmax(lane);
    for (double& v : p) v = std::log(v);
    return p;
  };
  for (int axis : {0, 1, 2, -1}) {
    SCOPED_TRACE(fmt::format("axis={}", axis));
    expect_matches(x.softmax(axis), along_axis(nx, axis, softmax), Tolerance{1e-5, 1e-6});
    expect_matches(x.log_softmax(axis), along_axis(nx, axis, log_softmax), Tolerance{1e-5, 1e-5});
    // every lane of a softmax sums to one
    EXPECT_TRUE(has_values(x.softmax(axis).sum(std::vector<int>{axis}),
                           std::vector<double>(24 / x.shape()[axis < 0 ? 2 : axis], 1.0), Tolerance{1e-6, 1e-6}));
  }
  // large inputs do not overflow: the maximum is subtracted first
  EXPECT_TRUE(has_values(tensor({1000, 1000}).softmax(), {0.5, 0.5}));
  EXPECT_TRUE(has_values(tensor({1000, 1000}).logsumexp(), {1000 + std::log(2.0)}));
}

TEST_P(Ops, ReductionSemantics) {
  EXPECT_TRUE(has_values(tensor({1, 2, 3, 4}).var(), {1.6666666}, Tolerance{1e-6, 0}));
  EXPECT_TRUE(has_values(tensor({1, 2, 3, 4}).var({}, false, 0), {1.25}));
  EXPECT_TRUE(has_values(tensor({1, 2, 3, 4}).std(), {std::sqrt(5.0 / 3)}, Tolerance{1e-6, 0}));
  EXPECT_TRUE(has_values(tensor({1, 0, 1, 1}, Bool).sum(), {3}));
  EXPECT_TRUE(has_values(tensor({1, 2}, I32).mean(), {1.5}));
  EXPECT_TRUE(has_values(tensor({100, 100, 100}, I8).sum(), {300}));  // accumulates in int32
  EXPECT_TRUE(has_values(tensor({200, 200}, U8).sum(), {400}));
  EXPECT_TRUE(has_values(tensor({2, 3, 4}, I8).prod(), {24}));
  EXPECT_TRUE(has_values(tensor({-5, -2}, I8).max(), {-2}));
  EXPECT_TRUE(has_values(tensor({250, 3}, U8).min(), {3}));
  EXPECT_TRUE(has_values(tensor({-128, 127}, I8).min(), {-128}));
  EXPECT_TRUE(has_values(tensor({1, 0}, Bool).min(), {0}));
  EXPECT_TRUE(has_values(tensor({-std::numeric_limits<double>::infinity(), -1}).max(), {-1}));
  // a scalar reduces to itself
  EXPECT_TRUE(has_values(Tensor::full({}, 2.5).sum(), {2.5}));
  // reducing an empty axis gives the identity
  const Tensor empty = tensor({}, {0, 3}, F32);
  EXPECT_TRUE(has_values(empty.sum(std::vector<int>{0}), {0, 0, 0}));
  EXPECT_TRUE(has_values(empty.prod(std::vector<int>{0}), {1, 1, 1}));
  EXPECT_EQ(empty.max(std::vector<int>{1}).shape(), Shape{0});
}

// ================================================================================================
// Movement
// ================================================================================================

struct MoveCase {
  const char* name;
  std::function<Tensor(const Tensor&)> op;
  std::function<Nd(const Nd&)> expect;
};

void PrintTo(const MoveCase& c, std::ostream* os) { *os << c.name; }

using Idx = std::vector<int64_t>;

const std::vector<MoveCase>& move_cases() {
  static const std::vector<MoveCase> cases{
      {"reshape_4_6", [](const Tensor& x) { return x.reshape({4, 6}); }, [](const Nd& x) { return Nd{{4, 6}, x.v}; }},
      {"reshape_minus1", [](const Tensor& x) { return x.reshape({-1, 4}); },
       [](const Nd& x) { return Nd{{6, 4}, x.v}; }},
      {"reshape_minus1_middle", [](const Tensor& x) { return x.reshape({3, -1, 2}); },
       [](const Nd& x) { return Nd{{3, 4, 2}, x.v}; }},
      {"reshape_scalar", [](const Tensor& x) { return x.shrink({Range{1, 2}, Range{2, 3}, Range{3, 4}}).reshape({}); },
       [](const Nd& x) { return Nd{{}, {x.at({1, 2, 3})}}; }},
      {"permute", [](const Tensor& x) { return x.permute({2, 0, 1}); },
       [](const Nd& x) { return Nd::of({4, 2, 3}, [&](const Idx& i) { return x.at({i[1], i[2], i[0]}); }); }},
      {"permute_negative", [](const Tensor& x) { return x.permute({-1, -3, -2}); },
       [](const Nd& x) { return Nd::of({4, 2, 3}, [&](const Idx& i) { return x.at({i[1], i[2], i[0]}); }); }},
      {"expand", [](const Tensor& x) { return x.shrink({nullopt, Range{1, 2}, nullopt}).expand({2, 3, 4}); },
       [](const Nd& x) { return Nd::of({2, 3, 4}, [&](const Idx& i) { return x.at({i[0], 1, i[2]}); }); }},
      {"expand_keep_minus1",
       [](const Tensor& x) { return x.shrink({nullopt, nullopt, Range{0, 1}}).expand({-1, -1, 5}); },
       [](const Nd& x) { return Nd::of({2, 3, 5}, [&](const Idx& i) { return x.at({i[0], i[1], 0}); }); }},
      {"expand_new_dim", [](const Tensor& x) { return x.expand({2, 2, 3, 4}); },
       [](const Nd& x) { return Nd::of({2, 2, 3, 4}, [&](const Idx& i) { return x.at({i[1], i[2], i[3]}); }); }},
      {"pad", [](const Tensor& x) { return x.pad({{1, 0}, {0, 2}, {1, 1}}); },
       [](const Nd& x) {
         return Nd::of({3, 5, 6}, [&](const Idx& i) {
           return i[0] >= 1 && i[1] < 3 && i[2] >= 1 && i[2] < 5 ? x.at({i[0] - 1, i[1], i[2] - 1}) : 0.0;
         });
       }},
      {"pad_value", [](const Tensor& x) { return x.pad({{0, 0}, {2, 0}, {0, 1}}, int64_t{-2}); },
       [](const Nd& x) {
         return Nd::of({2, 5, 5},
                       [&](const Idx& i) { return i[1] >= 2 && i[2] < 4 ? x.at({i[0], i[1] - 2, i[2]}) : -2.0; });
       }},
      {"pad_negative", [](const Tensor& x) { return x.pad({{0, 0}, {-1, 1}, {0, -2}}); },
       [](const Nd& x) {
         return Nd::of({2, 3, 2}, [&](const Idx& i) { return i[1] + 1 < 3 ? x.at({i[0], i[1] + 1, i[2]}) : 0.0; });
       }},
      {"shrink", [](const Tensor& x) { return x.shrink({Range{0, 1}, Range{1, 3}, Range{1, 4}}); },
       [](const Nd& x) { return Nd::of({1, 2, 3}, [&](const Idx& i) { return x.at({i[0], i[1] + 1, i[2] + 1}); }); }},
      {"flip", [](const Tensor& x) { return x.flip({0, 2}); },
       [](const Nd& x) { return Nd::of({2, 3, 4}, [&](const Idx& i) { return x.at({1 - i[0], i[1], 3 - i[2]}); }); }},
      {"flip_negative", [](const Tensor& x) { return x.flip({-2}); },
       [](const Nd& x) { return Nd::of({2, 3, 4}, [&](const Idx& i) { return x.at({i[0], 2 - i[1], i[2]}); }); }},
      {"transpose", [](const Tensor& x) { return x.transpose(0, 2); },
       [](const Nd& x) { return Nd::of({4, 3, 2}, [&](const Idx& i) { return x.at({i[2], i[1], i[0]}); }); }},
      {"transpose_default", [](const Tensor& x) { return x.transpose(); },
       [](const Nd& x) { return Nd::of({3, 2, 4}, [&](const Idx& i) { return x.at({i[1], i[0], i[2]}); }); }},
      {"T_of_matrix", [](const Tensor& x) { return x.reshape({6, 4}).T(); },
       [](const Nd& x) { return Nd::of({4, 6}, [&](const Idx& i) { return x.v[i[1] * 4 + i[0]]; }); }},
      {"flatten", [](const Tensor& x) { return x.permute({1, 0, 2}).flatten(); },
       [](const Nd& x) {
         return Nd::of({24}, [&](const Idx& i) { return x.at({i[0] / 4 % 2, i[0] / 8, i[0] % 4}); });
       }},
      {"flatten_from_1", [](const Tensor& x) { return x.flatten(1); }, [](const Nd& x) { return Nd{{2, 12}, x.v}; }},
      {"flatten_0_1", [](const Tensor& x) { return x.flatten(0, 1); }, [](const Nd& x) { return Nd{{6, 4}, x.v}; }},
      {"unsqueeze_0", [](const Tensor& x) { return x.unsqueeze(0); },
       [](const Nd& x) { return Nd{{1, 2, 3, 4}, x.v}; }},
      {"unsqueeze_last", [](const Tensor& x) { return x.unsqueeze(-1); },
       [](const Nd& x) { return Nd{{2, 3, 4, 1}, x.v}; }},
      {"unsqueeze_2", [](const Tensor& x) { return x.unsqueeze(2); },
       [](const Nd& x) { return Nd{{2, 3, 1, 4}, x.v}; }},
      {"squeeze_all", [](const Tensor& x) { return x.reshape({2, 1, 3, 1, 4}).squeeze(); },
       [](const Nd& x) { return Nd{{2, 3, 4}, x.v}; }},
      {"squeeze_dim", [](const Tensor& x) { return x.reshape({2, 1, 3, 1, 4}).squeeze(1); },
       [](const Nd& x) { return Nd{{2, 3, 1, 4}, x.v}; }},
      {"squeeze_not_one", [](const Tensor& x) { return x.squeeze(0); }, [](const Nd& x) { return x; }},
      {"repeat", [](const Tensor& x) { return x.repeat({2, 1, 2}); },
       [](const Nd& x) { return Nd::of({4, 3, 8}, [&](const Idx& i) { return x.at({i[0] % 2, i[1], i[2] % 4}); }); }},
      {"repeat_new_dim", [](const Tensor& x) { return x.repeat({3, 1, 1, 1}); },
       [](const Nd& x) { return Nd::of({3, 2, 3, 4}, [&](const Idx& i) { return x.at({i[1], i[2], i[3]}); }); }},
      {"cat_dim1", [](const Tensor& x) { return x.cat({x.mul(Tensor::scalar_like(x, int64_t{10}))}, 1); },
       [](const Nd& x) {
         return Nd::of({2, 6, 4}, [&](const Idx& i) { return i[1] < 3 ? x.at(i) : 10 * x.at({i[0], i[1] - 3, i[2]}); });
       }},
      {"cat_three_last",
       [](const Tensor& x) { return x.cat({x.neg(), x.shrink({nullopt, nullopt, Range{0, 1}})}, -1); },
       [](const Nd& x) {
         return Nd::of({2, 3, 9}, [&](const Idx& i) {
           return i[2] < 4 ? x.at(i) : i[2] < 8 ? -x.at({i[0], i[1], i[2] - 4}) : x.at({i[0], i[1], 0});
         });
       }},
      {"cat_dim0", [](const Tensor& x) { return x.cat({x.flip({0}), x}, 0); },
       [](const Nd& x) {
         // x, then x flipped, then x again
         return Nd::of({6, 3, 4}, [&](const Idx& i) {
           const int64_t row = i[0] % 2;
           return x.at({i[0] / 2 == 1 ? 1 - row : row, i[1], i[2]});
         });
       }},
      {"chain_of_views",
       [](const Tensor& x) { return x.permute({2, 1, 0}).reshape({4, 6}).shrink({Range{1, 3}, nullopt}).flip({1}); },
       [](const Nd& x) {
         // permute (4,3,2) -> rows of 6; row r, column c reads permuted[r][c/2][c%2] = x[c%2][c/2][r]
         return Nd::of({2, 6}, [&](const Idx& i) {
           const int64_t r = i[0] + 1, c = 5 - i[1];
           return x.at({c % 2, c / 2, r});
         });
       }},
  };
  return cases;
}

class Movement : public ::testing::TestWithParam<std::tuple<Opts, MoveCase>> {
 protected:
  ScopedOpts opts_{std::get<0>(GetParam())};
};

INSTANTIATE_TEST_SUITE_P(Cpu, Movement,
                         ::testing::Combine(both_opts(), ::testing::ValuesIn(move_cases())),
                         case_name<MoveCase>);

TEST_P(Movement, MatchesIndexArithmetic) {
  const MoveCase& c = std::get<1>(GetParam());
  for (DType t : {F32, I8, Bool}) {
    SCOPED_TRACE(name(t));
    const Tensor x = t == Bool ? random_tensor({2, 3, 4}, Bool, 0, 1, 61) : iota({2, 3, 4}, t);
    // these mix in numbers, which a bool tensor cannot hold
    if (t == Bool && std::set<std::string>{"pad_value", "cat_dim1", "cat_three_last"}.count(c.name)) continue;
    Nd expected = c.expect(nd_of(x));
    for (double& v : expected.v) v = round_to(t, v);  // values computed here wrap or round as x's dtype does
    const Tensor y = c.op(x);
    EXPECT_EQ(y.dtype(), t);
    expect_matches(y, expected);
  }
}

// Padding (and what is built on it: cat, strided slices) of a computed value fills with the pad
// value, whatever the computation gives on zero: exp(0) is 1 and log(0) is -inf, not 0.
TEST_P(Ops, PaddingComputedValuesFillsWithThePadValue) {
  const Tensor x = tensor({1, 2, 4});
  const double e1 = std::exp(1.0), e2 = std::exp(2.0), e4 = std::exp(4.0);
  const Tolerance tol{1e-6, 1e-6};
  EXPECT_TRUE(has_values(x.exp().pad({{1, 1}}), {0, e1, e2, e4, 0}, tol));
  EXPECT_TRUE(has_values(x.log().pad({{0, 2}}, int64_t{-1}), {0, std::log(2.0), std::log(4.0), -1, -1}, tol));
  EXPECT_TRUE(has_values(x.reciprocal().pad({{1, 0}}), {0, 1, 0.5, 0.25}, tol));
  EXPECT_TRUE(has_values(x.div(Tensor::scalar_like(x, 2.0)).pad({{1, 0}}), {0, 0.5, 1, 2}, tol));
  EXPECT_TRUE(has_values(x.exp().cat({x}), {e1, e2, e4, 1, 2, 4}, tol));
  EXPECT_TRUE(has_values(x.sqrt().cat({x.log()}), {1, std::sqrt(2.0), 2, 0, std::log(2.0), std::log(4.0)}, tol));
  EXPECT_TRUE(has_values(x.exp().getitem({Slice{nullopt, nullopt, 2}}), {e1, e4}, tol));
  EXPECT_TRUE(has_values(x.exp().shrink({Range{1, 3}}).pad({{0, 1}}), {e2, e4, 0}, tol));
  EXPECT_TRUE(matches_reference(x.exp().pad({{1, 1}})));
  EXPECT_TRUE(matches_reference(x.log().cat({x.exp()})));
}

// ---- getitem: Python's indexing, written out independently ----

// Python's slice.indices(n): the positions a slice selects from a dim of size n.
std::vector<int64_t> slice_positions(const Slice& s, int64_t n) {
  const int64_t step = s.step.value_or(1);
  auto norm = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    const int64_t x = *v < 0 ? *v + n : *v;
    return step > 0 ? std::clamp<int64_t>(x, 0, n) : std::clamp<int64_t>(x, -1, n - 1);
  };
  const int64_t start = norm(s.start, step > 0 ? 0 : n - 1), stop = norm(s.stop, step > 0 ? n : -1);
  std::vector<int64_t> out;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out.push_back(i);
  return out;
}

Nd py_getitem(const Nd& x, const std::vector<Index>& index) {
  const auto consumes = [](const Index& i) {
    return std::holds_alternative<int64_t>(i) || std::holds_alternative<Slice>(i);
  };
  const int64_t used = std::count_if(index.begin(), index.end(), consumes);
  std::vector<Index> full;
  for (const Index& i : index) {
    if (!std::holds_alternative<Ellipsis>(i)) full.push_back(i);
    else
      for (int64_t k = used; k < static_cast<int64_t>(x.shape.size()); k++) full.push_back(Slice{});
  }
  while (std::count_if(full.begin(), full.end(), consumes) < static_cast<int64_t>(x.shape.size()))
    full.push_back(Slice{});
  // per output dim: the input dim it walks and the positions; ints pin an input dim
  std::vector<std::vector<int64_t>> pos(x.shape.size());
  std::vector<int> out_dims;  // input dim of each output dim, -1 for a new axis
  size_t d = 0;
  for (const Index& i : full) {
    if (std::holds_alternative<NewAxis>(i)) {
      out_dims.push_back(-1);
      continue;
    }
    if (const int64_t* k = std::get_if<int64_t>(&i)) {
      pos[d] = {*k < 0 ? *k + x.shape[d] : *k};
    } else {
      pos[d] = slice_positions(std::get<Slice>(i), x.shape[d]);
      out_dims.push_back(static_cast<int>(d));
    }
    d++;
  }
  Shape shape;
  for (int od : out_dims) shape.push_back(od < 0 ? 1 : static_cast<int64_t>(pos[od].size()));
  return Nd::of(shape, [&](const Idx& o) {
    Idx in(x.shape.size());
    for (size_t k = 0; k < x.shape.size(); k++) in[k] = pos[k][0];
    for (size_t k = 0; k < out_dims.size(); k++)
      if (out_dims[k] >= 0) in[out_dims[k]] = pos[out_dims[k]][o[k]];
    return x.at(in);
  });
}

struct GetitemCase {
  const char* text;
  std::vector<Index> index;
};

Slice S(std::optional<int64_t> start, std::optional<int64_t> stop, std::optional<int64_t> step = nullopt) {
  return Slice{start, stop, step};
}
const Slice all{};

TEST_P(Ops, GetitemFollowsPythonIndexing) {
  const GetitemCase cases[] = {
      {"x[1]", {int64_t{1}}},
      {"x[-1]", {int64_t{-1}}},
      {"x[1, -2, 3]", {int64_t{1}, int64_t{-2}, int64_t{3}}},
      {"x[1:3]", {S(1, 3)}},
      {"x[::2]", {S(nullopt, nullopt, 2)}},
      {"x[::-1]", {S(nullopt, nullopt, -1)}},
      {"x[::-2]", {S(nullopt, nullopt, -2)}},
      {"x[3:0:-2]", {S(3, 0, -2)}},
      {"x[:, -1:-6:-3]", {all, S(-1, -6, -3)}},
      {"x[:, :, ::-4]", {all, all, S(nullopt, nullopt, -4)}},
      {"x[-100:100]", {S(-100, 100)}},
      {"x[::3, 1::2, ::-5]", {S(nullopt, nullopt, 3), S(1, nullopt, 2), S(nullopt, nullopt, -5)}},
      {"x[..., 0]", {Ellipsis{}, int64_t{0}}},
      {"x[..., ::-1, 2]", {Ellipsis{}, S(nullopt, nullopt, -1), int64_t{2}}},
      {"x[None]", {NewAxis{}}},
      {"x[None, ..., None]", {NewAxis{}, Ellipsis{}, NewAxis{}}},
      {"x[1, None, ::-2, None, 4]", {int64_t{1}, NewAxis{}, S(nullopt, nullopt, -2), NewAxis{}, int64_t{4}}},
      {"x[2:1]", {S(2, 1)}},
      {"x[:, 5:]", {all, S(5, nullopt)}},
      {"x[0:4:5, ::-7]", {S(0, 4, 5), S(nullopt, nullopt, -7)}},
  };
  const Tensor x = iota({4, 5, 6}, I32, 0);
  const Nd nx = nd_of(x);
  for (const GetitemCase& c : cases) {
    SCOPED_TRACE(c.text);
    const Tensor y = x.getitem(c.index);
    expect_matches(y, py_getitem(nx, c.index));
  }
  // a few values worked out by hand
  const Tensor r = Tensor::arange(int64_t{0}, int64_t{6});
  EXPECT_TRUE(has_values(r.getitem({S(nullopt, nullopt, -2)}), {5, 3, 1}));
  EXPECT_TRUE(has_values(r.getitem({S(4, 0, -2)}), {4, 2}));
  EXPECT_TRUE(has_values(r.getitem({S(-2, nullopt, -1)}), {4, 3, 2, 1, 0}));
  EXPECT_TRUE(has_values(r.getitem({S(1, nullopt, 3)}), {1, 4}));
  EXPECT_EQ(std::get<int64_t>(r.getitem({int64_t{-1}}).item()), 5);
}

// ================================================================================================
// dot and matmul
// ================================================================================================

// numpy's matmul: 1-D operands gain a dim that is dropped again; batch dims broadcast.
Nd matmul_nd(const Nd& a, const Nd& b) {
  Shape sa = a.shape, sb = b.shape;
  const bool a1 = sa.size() == 1, b1 = sb.size() == 1;
  if (a1) sa.insert(sa.begin(), 1);
  if (b1) sb.push_back(1);
  const int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  const Shape ba(sa.begin(), sa.end() - 2), bb(sb.begin(), sb.end() - 2);
  const Shape batch = broadcast_shape(ba, bb);
  Shape out = batch;
  out.insert(out.end(), {m, n});
  const auto pick = [&](const Idx& o, const Shape& bs) {
    Idx r(bs.size());
    for (size_t d = 0; d < bs.size(); d++) r[d] = bs[d] == 1 ? 0 : o[batch.size() - bs.size() + d];
    return r;
  };
  const Nd a2{sa, a.v}, b2{sb, b.v};
  Nd r = Nd::of(out, [&](const Idx& o) {
    Idx ia = pick(o, ba), ib = pick(o, bb);
    ia.insert(ia.end(), {o[batch.size()], 0});
    ib.insert(ib.end(), {0, o[batch.size() + 1]});
    double s = 0;
    for (int64_t j = 0; j < k; j++) {
      ia.back() = j;
      ib[ib.size() - 2] = j;
      s += a2.at(ia) * b2.at(ib);
    }
    return s;
  });
  if (b1) r.shape.pop_back();
  if (a1) r.shape.erase(r.shape.end() - (b1 ? 1 : 2));
  return r;
}

TEST_P(Ops, MatmulShapes) {
  const std::pair<Shape, Shape> shapes[] = {
      {{3}, {3}},       {{2, 3}, {3}},       {{3}, {3, 4}},          {{2, 3}, {3, 4}},       {{1, 1}, {1, 1}},
      {{2, 2, 3}, {3, 4}}, {{2, 2, 3}, {2, 3, 4}}, {{2, 1, 2, 3}, {3, 3, 2}}, {{3}, {2, 3, 4}}, {{2, 5, 3}, {3}},
  };
  uint64_t seed = 71;
  for (const auto& [sa, sb] : shapes) {
    SCOPED_TRACE(fmt::format("{} @ {}", shape_str(sa), shape_str(sb)));
    const Tensor a = random_tensor(sa, F32, -2, 2, seed++), b = random_tensor(sb, F32, -2, 2, seed++);
    const Nd expected = matmul_nd(nd_of(a), nd_of(b));
    expect_matches(a.matmul(b), expected, Tolerance{1e-5, 1e-5});
    expect_matches(a.dot(b), expected, Tolerance{1e-5, 1e-5});
    const Tensor ia = random_tensor(sa, I32, -5, 5, seed++), ib = random_tensor(sb, I32, -5, 5, seed++);
    expect_matches(ia.matmul(ib), matmul_nd(nd_of(ia), nd_of(ib)));
  }
  EXPECT_EQ(std::get<int64_t>(tensor({1, 2}, I32).dot(tensor({3, 4}, I32)).item()), 11);
}

// ================================================================================================
// Creation
// ================================================================================================

TEST_P(Ops, Arange) {
  EXPECT_TRUE(has_values(Tensor::arange(int64_t{0}, int64_t{5}), {0, 1, 2, 3, 4}));
  EXPECT_TRUE(has_values(Tensor::arange(int64_t{2}, int64_t{8}, int64_t{2}), {2, 4, 6}));
  EXPECT_TRUE(has_values(Tensor::arange(int64_t{2}, int64_t{9}, int64_t{3}), {2, 5, 8}));
  EXPECT_TRUE(has_values(Tensor::arange(int64_t{5}, int64_t{0}, int64_t{-2}), {5, 3, 1}));
  EXPECT_TRUE(has_values(Tensor::arange(int64_t{0}, int64_t{1}, 0.25), {0, 0.25, 0.5, 0.75}));
  EXPECT_TRUE(has_values(Tensor::arange(-1.0, 1.0, 0.5), {-1, -0.5, 0, 0.5}));
  EXPECT_TRUE(has_values(Tensor::arange(0.5, int64_t{3}), {0.5, 1.5, 2.5}));
  EXPECT_EQ(Tensor::arange(0.0, 1.0, 0.1).shape(), Shape{10});
  EXPECT_EQ(Tensor::arange(int64_t{3}, int64_t{0}).shape(), Shape{0});
  EXPECT_TRUE(has_values(Tensor::arange(int64_t{0}, int64_t{4}, int64_t{1}, F16), {0, 1, 2, 3}));
  EXPECT_TRUE(
      matches_reference(Tensor::arange(int64_t{3}, int64_t{40}, int64_t{7}).reshape({-1, 2}).sum(std::vector<int>{1})));
}

// tinygrad's dtype for an int arange: int32 while [start, stop - step] fits it, else int64; a dtype
// asked for that cannot hold the range is an error, not values wrapped.
TEST(Arange, AnIntRangePastInt32IsInt64) {
  const int64_t big = int64_t{1} << 40, step = int64_t{1} << 38;
  const Tensor wide = Tensor::arange(int64_t{0}, big, step);
  EXPECT_EQ(wide.dtype(), DType::Int64);
  EXPECT_EQ(values(wide), (std::vector<double>{0, 1.0 * step, 2.0 * step, 3.0 * step}));
  const Tensor across = Tensor::arange(int64_t{2147483646}, int64_t{2147483649});
  EXPECT_EQ(across.dtype(), DType::Int64);
  EXPECT_EQ(values(across), (std::vector<double>{2147483646, 2147483647, 2147483648}));
  EXPECT_EQ(Tensor::arange(int64_t{-2147483648}, int64_t{-2147483646}).dtype(), I32);
  EXPECT_EQ(Tensor::arange(int64_t{0}, int64_t{2147483647}).dtype(), I32);
  EXPECT_EQ(Tensor::arange(int64_t{0}, int64_t{3000000000}, int64_t{1000000000}).shape(), Shape{3});
  EXPECT_TRUE(throws([] { Tensor::arange(int64_t{0}, int64_t{300}, int64_t{1}, U8); }, "value", "not representable in dtype uint8"));
  EXPECT_EQ(values(Tensor::arange(int64_t{0}, int64_t{256}, int64_t{1}, U8).max()), std::vector<double>{255});
}

TEST_P(Ops, LinspaceEyeFull) {
  EXPECT_TRUE(has_values(Tensor::linspace(int64_t{0}, int64_t{1}, 5), {0, 0.25, 0.5, 0.75, 1}));
  EXPECT_TRUE(has_values(Tensor::linspace(-1.0, 2.0, 4), {-1, 0, 1, 2}));
  EXPECT_TRUE(has_values(Tensor::linspace(5.0, 1.0, 3), {5, 3, 1}));
  EXPECT_TRUE(has_values(Tensor::linspace(2.0, 3.0, 1), {2}));
  EXPECT_EQ(Tensor::linspace(2.0, 3.0, 0).shape(), Shape{0});
  EXPECT_TRUE(has_values(Tensor::eye(3), {1, 0, 0, 0, 1, 0, 0, 0, 1}));
  const Tensor rect = Tensor::eye(2, 3, I32);
  EXPECT_EQ(rect.shape(), (Shape{2, 3}));
  EXPECT_TRUE(has_values(rect, {1, 0, 0, 0, 1, 0}));
  EXPECT_TRUE(has_values(Tensor::full({2, 2}, int64_t{7}), {7, 7, 7, 7}));
  EXPECT_TRUE(has_values(Tensor::full({3}, 1.5, F16), {1.5, 1.5, 1.5}));
  EXPECT_TRUE(has_values(Tensor::full({2}, true), {1, 1}));
  EXPECT_TRUE(has_values(Tensor::full({2}, int64_t{300}, U8), {44, 44}));
  EXPECT_TRUE(has_values(Tensor::zeros({2, 1}), {0, 0}));
  EXPECT_TRUE(has_values(Tensor::ones({1, 3}, I8), {1, 1, 1}));
  EXPECT_EQ(Tensor::full({}, 2.5).shape(), Shape{});
  EXPECT_EQ(as_double(Tensor::full({}, 2.5).item()), 2.5);
  const Tensor x = iota({2, 3}, I8);
  EXPECT_TRUE(has_values(x.zeros_like(), std::vector<double>(6, 0)));
  EXPECT_TRUE(has_values(x.ones_like(), std::vector<double>(6, 1)));
  EXPECT_TRUE(has_values(x.full_like(int64_t{-3}), std::vector<double>(6, -3)));
  EXPECT_EQ(x.zeros_like().shape(), x.shape());
  EXPECT_EQ(x.full_like(0.5, F32).dtype(), F32);
}

TEST_P(Ops, RandIsDeterministicAndInRange) {
  const std::vector<double> a = values(Tensor::rand({4, 64}, 7)), b = values(Tensor::rand({4, 64}, 7));
  EXPECT_EQ(a, b) << "same seed, same values";
  EXPECT_NE(a, values(Tensor::rand({4, 64}, 8))) << "another seed, other values";
  // element i depends only on (seed, i): a smaller tensor is a prefix of a larger one
  const std::vector<double> prefix = values(Tensor::rand({10}, 7));
  EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), a.begin()));
  for (double v : a) {
    EXPECT_GE(v, 0);
    EXPECT_LT(v, 1);
  }
  EXPECT_GT(std::set<double>(a.begin(), a.end()).size(), 250u) << "values repeat";
  const double mean = mean_of(a);
  EXPECT_NEAR(mean, 0.5, 0.06);
  for (double v : values(Tensor::rand({64}, 3, F16))) {
    EXPECT_GE(v, 0);
    EXPECT_LE(v, 1);
  }

  const std::vector<double> n = values(Tensor::randn({4096}, 11));
  EXPECT_EQ(n, values(Tensor::randn({4096}, 11)));
  EXPECT_NE(n, values(Tensor::randn({4096}, 12)));
  for (double v : n) ASSERT_TRUE(std::isfinite(v));
  EXPECT_NEAR(mean_of(n), 0, 0.06);
  EXPECT_NEAR(std::sqrt(var_of(n, 1)), 1, 0.06);
  EXPECT_TRUE(matches_reference(Tensor::rand({3, 3}, 5).mul(Tensor::randn({3, 3}, 5))));
}

// ================================================================================================
// Semantics worked out by hand
// ================================================================================================

TEST_P(Ops, FloorDivAndModFollowPythonSigns) {
  const std::vector<double> a{-7, 7, -7, 7, 0, -1, 6, -6}, b{2, -2, -2, 2, 3, 4, 3, 4};
  const std::vector<double> q{-4, -4, 3, 3, 0, -1, 2, -2}, r{1, -1, -1, 1, 0, 3, 0, 2};
  for (DType t : {I32, I8, I64, F32, F16}) {
    SCOPED_TRACE(name(t));
    EXPECT_TRUE(has_values(tensor(a, t).floordiv(tensor(b, t)), q));
    EXPECT_TRUE(has_values(tensor(a, t).mod(tensor(b, t)), r));
  }
  EXPECT_TRUE(has_values(tensor({-7}, I32).floordiv(Tensor::scalar_like(tensor({0}, I32), int64_t{2})), {-4}));
  EXPECT_TRUE(has_values(tensor({5.5, -5.5}).mod(tensor({2, 2})), {1.5, 0.5}));
  EXPECT_TRUE(has_values(tensor({7, 200}, U8).floordiv(tensor({2, 3}, U8)), {3, 66}));
}

// A half result is rounded once, to the nearest half (ties to even), after every operation.
TEST_P(Ops, HalfRoundsOnceAfterEveryOperation) {
  const Tensor big = tensor({1024, 2048}, F16), half = tensor({0.5, 1}, F16);
  // 1024.5 and 2049 are not halves: the sum rounds (to even) before the subtraction
  EXPECT_TRUE(has_values(big.add(half).sub(big), {0, 0}));
  EXPECT_TRUE(matches_reference(big.add(half).sub(big)));
  EXPECT_TRUE(has_values(tensor({2049}, I32).cast(F16), {2048}));
  // a float64 converts to half in one rounding: 1 + 2^-11 + 2^-40 is above the tie, so it rounds up
  const Tensor d = tensor({1 + std::exp2(-11) + std::exp2(-40)}, F64).cast(F16);
  EXPECT_TRUE(has_values(d, {1 + std::exp2(-10)}, Tolerance{}));
  EXPECT_TRUE(matches_reference(d, Tolerance{}));
}

// bfloat16 is float32's top 16 bits, each result rounded to nearest (ties to even) after every
// operation, which runs in float.
TEST_P(Ops, BFloat16RoundsOnceAfterEveryOperation) {
  // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7 (goes to even: 1); 1 + 3 * 2^-8 halfway above 1 + 2^-7
  // (goes up to 1 + 2^-6); past the largest bfloat16 (about 3.39e38) is infinity
  const Tensor x = tensor({1 + std::exp2(-8), 1 + 3 * std::exp2(-8), 0.1, 3.5e38, -0.0}).cast(BF16);
  EXPECT_TRUE(has_values(x, {1, 1 + std::exp2(-6), 0.10009765625, std::numeric_limits<double>::infinity(), -0.0}, Tolerance{}));
  EXPECT_TRUE(has_values(x.bitcast(DType::UInt16), {16256, 16258, 15821, 32640, 32768}));
  // 256 + 1 is not a bfloat16: the sum rounds (to even) before the subtraction
  const Tensor big = tensor({256, 512}, BF16), one = tensor({1, 3}, BF16);
  EXPECT_TRUE(has_values(big.add(one).sub(big), {0, 4}, Tolerance{}));
  EXPECT_TRUE(matches_reference(big.add(one).sub(big), Tolerance{}));
  // from float64 through float32, as torch and tinygrad convert: 1 + 2^-8 + 2^-40 becomes the tie in float32
  const Tensor d = tensor({1 + std::exp2(-8) + std::exp2(-40)}, F64).cast(BF16);
  EXPECT_TRUE(has_values(d, {1}, Tolerance{}));
  EXPECT_TRUE(matches_reference(d, Tolerance{}));
  // bits in, bits out: NaN, the smallest subnormal, -infinity
  const Tensor bits = tensor({32704, 1, 65408}, DType::UInt16).bitcast(BF16);
  EXPECT_TRUE(has_values(bits.mul(tensor({1, 2, 1}, BF16)), {std::nan(""), std::exp2(-132), -std::numeric_limits<double>::infinity()},
                         Tolerance{}));
  // a matmul sums its rounded products in float and rounds the sum once
  const Tensor a = tensor({1, 2, 3, 4, 5, 6}, BF16).reshape({2, 3}).div(tensor({7}, BF16)), w = tensor({3, -1, 2, 5, 1, 1}, BF16).reshape({3, 2});
  EXPECT_TRUE(matches_reference(a.matmul(w), Tolerance{}));
  EXPECT_EQ(a.matmul(w).dtype(), BF16);
  EXPECT_EQ(a.sum().dtype(), BF16);
}

TEST_P(Ops, RoundIsHalfToEven) {
  const Tensor x = tensor({0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 0.49, 2.51, -2.51, 1e6 + 0.5, 7});
  EXPECT_TRUE(has_values(x.round(), {0, 2, 2, 4, -0.0, -2, -2, 0, 3, -3, 1e6, 7}));
  EXPECT_TRUE(
      has_values(x.cast(F16).round(), {0, 2, 2, 4, 0, -2, -2, 0, 3, -3, std::numeric_limits<double>::infinity(), 7}));
  EXPECT_TRUE(has_values(tensor({0.5, 1.5, 2.5}, F64).round(), {0, 2, 2}));
  // floats this large are all integers, and round leaves them alone
  EXPECT_TRUE(has_values(tensor({8388609, -8388611, 16777215}).round(), {8388609, -8388611, 16777215}, Tolerance{}));
}

TEST_P(Ops, IntegerSemantics) {
  EXPECT_TRUE(has_values(tensor({1, 2, 3}, I32).div(tensor({2, 2, 2}, I32)), {0.5, 1, 1.5}));
  EXPECT_TRUE(has_values(tensor({100, -100}, I8).add(tensor({100, -100}, I8)), {-56, 56}));  // wraps
  // the wrapped product is what the comparison sees
  EXPECT_TRUE(has_values(tensor({50, 3}, I8).mul(tensor({3, 3}, I8)).lt(tensor({0, 0}, I8)), {1, 0}));
  EXPECT_TRUE(has_values(tensor({200, 3}, U8).add(tensor({100, 3}, U8)).lt(tensor({100, 100}, U8)), {1, 1}));
  EXPECT_TRUE(has_values(tensor({3, 0}, U8).sub(tensor({5, 1}, U8)), {254, 255}));
  EXPECT_TRUE(has_values(tensor({250, 5}, U8).lt(tensor({5, 250}, U8)), {0, 1}));  // unsigned compare
  EXPECT_TRUE(has_values(tensor({-3, 3}, I32).mul(Tensor::scalar_like(tensor({0}, I32), 2.5)), {-7.5, 7.5}));
  EXPECT_TRUE(has_values(tensor({6, 5}, I32).logical_and(tensor({3, 4}, I32)), {2, 4}));
  EXPECT_TRUE(has_values(tensor({6, 5}, I32).logical_or(tensor({3, 2}, I32)), {7, 7}));
  EXPECT_TRUE(has_values(tensor({6, -1}, I32).bitwise_xor(tensor({3, 1}, I32)), {5, -2}));
  EXPECT_TRUE(has_values(tensor({-128, 5}, I8).neg(), {-128, -5}));
  EXPECT_TRUE(has_values(tensor({-5, 0, 7}, I32).sign(), {-1, 0, 1}));
  EXPECT_TRUE(has_values(tensor({-5, 0, 7}, I32).abs(), {5, 0, 7}));
  EXPECT_TRUE(has_values(tensor({-5, 0, 7}, I32).relu(), {0, 0, 7}));
  EXPECT_TRUE(has_values(tensor({1, 0}, Bool).add(tensor({1, 1}, Bool)), {1, 1}));
  EXPECT_TRUE(has_values(tensor({1, 0}, Bool).mul(tensor({1, 1}, Bool)), {1, 0}));
}

TEST_P(Ops, CatPromotesMixedDtypes) {
  const Tensor c = tensor({1, 2}, I32).cat({tensor({0.5}, F32), tensor({1}, Bool)});
  EXPECT_EQ(c.dtype(), F32);
  EXPECT_TRUE(has_values(c, {1, 2, 0.5, 1}));
  const Tensor d = tensor({1, 0}, Bool).cat({tensor({-3}, I8)});
  EXPECT_EQ(d.dtype(), I8);
  EXPECT_TRUE(has_values(d, {1, 0, -3}));
  const Tensor e = tensor({1, 0}, Bool).cat({tensor({0, 1}, Bool)});
  EXPECT_EQ(e.dtype(), Bool);
  EXPECT_TRUE(has_values(e, {1, 0, 0, 1}));
  EXPECT_TRUE(matches_reference(c.add(d.cast(F32).cat({tensor({9})}))));
}

TEST_P(Ops, ItemAndScalars) {
  EXPECT_EQ(std::get<int64_t>(tensor({1, 2, 3}, I32).sum().item()), 6);
  EXPECT_EQ(std::get<double>(tensor({1.5, 2}).max().item()), 2.0);
  EXPECT_EQ(std::get<bool>(tensor({1, 0}, Bool).max().item()), true);
  EXPECT_EQ(std::get<int64_t>(iota({1, 1, 1}, I8).item()), 1);
  EXPECT_TRUE(allclose(tensor({1, 2}), tensor({1.000001, 2})));
  EXPECT_FALSE(allclose(tensor({1, 2}), tensor({1.1, 2})));
  EXPECT_FALSE(allclose(tensor({std::nan("")}), tensor({std::nan("")})));
}

// ================================================================================================
// Random programs against the reference evaluator
// ================================================================================================

struct Interval {
  double lo, hi;
  double mag() const { return std::max(std::abs(lo), std::abs(hi)); }
};

// A value of a generated program: its tensor, the program text that made it, a bound on its
// elements, and whether every correct backend computes it bit for bit as the reference does (no
// transcendental function, no multiply-add that a compiler may fuse, no half arithmetic on the way).
// Operations that jump (floor, comparisons, casts to integers, argmax) only take exact values, so
// that an ulp of difference in an earlier step cannot flip them.
struct Val {
  Tensor t;
  std::string expr;
  Interval r;
  bool exact;
};

const DType kGenDTypes[] = {F32, F16, I32, I8, U8, Bool, F64, I64};

Interval dtype_limits(DType t) {
  switch (t) {
    case Bool: return {0, 1};
    case I8: return {-128, 127};
    case U8: return {0, 255};
    case I16: return {-32768, 32767};
    case I32: return {-2147483648.0, 2147483647.0};
    case U32: return {0, 4294967295.0};
    case I64: return {-9.2233720368547758e18, 9.2233720368547758e18};
    default: return {-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  }
}

// Integers wrap: a bound beyond the dtype's range means any value of the dtype.
Interval fit(DType t, Interval r) {
  if (t == Bool) return {0, 1};
  const Interval lim = dtype_limits(t);
  if (!is_float(t) && (r.lo < lim.lo || r.hi > lim.hi)) return lim;
  return r;
}

Interval hull(Interval a, Interval b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }

Interval products(Interval a, Interval b) {
  const double p[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

// Magnitudes a float may reach in a program, far from overflow.
double float_budget(DType t) { return t == F16 ? 2e4 : 1e6; }

// Integers up to this size convert to the float dtype exactly (and round() stays exact in half).
double exact_int_limit(DType t) { return t == F16 ? 1024 : t == F32 ? 16777216 : 9e15; }

std::string const_text(const ConstValue& c) {
  if (const double* d = std::get_if<double>(&c)) return fmt::format("{}", *d);
  if (const bool* b = std::get_if<bool>(&c)) return *b ? "True" : "False";
  return std::to_string(std::get<int64_t>(c));
}

class ProgramGen {
 public:
  explicit ProgramGen(uint64_t seed) : rng_(seed * 0x9E3779B97F4A7C15ull + 12345) {}

  Val build() {
    // one draw a statement: the order in which a call's arguments are evaluated differs between g++ and
    // clang, and a seed must make one program under both (the sanitizer build reuses the kernels)
    const Shape shape = random_shape();
    Val v = input(shape, random_dtype());
    const int steps = 1 + pick(6);
    for (int i = 0; i < steps; i++) v = step(v);
    return v;
  }

  std::string text(const Val& out) const {
    return lines_ + "out = " + out.expr + "  # " + std::string(name(out.t.dtype()));
  }
  const std::set<std::string>& ops_used() const { return used_; }
  const std::set<DType>& input_dtypes() const { return input_dtypes_; }

  // Floats: the dtype's tolerance, loosened to that of any float dtype computed inexactly on the
  // way, with an absolute floor relative to the largest intermediate value (rounding errors scale
  // with the values they come from). Integers and bools: exact.
  Tolerance tolerance(const Val& out) const {
    if (!is_float(out.t.dtype())) return {};
    Tolerance tol = tolerance_for(out.t.dtype());
    tol.rtol = std::max(tol.rtol, loosest_rtol_);
    double scale = 1;
    for (const Tensor& t : seen_)
      for (double v : values(reference_eval(t.node())))
        if (std::isfinite(v)) scale = std::max(scale, std::abs(v));
    tol.atol = std::max(tol.atol, 4 * tol.rtol * scale);
    return tol;
  }

 private:
  std::mt19937_64 rng_;
  std::string lines_;
  int inputs_ = 0;
  std::vector<Tensor> seen_;
  std::set<std::string> used_;
  std::set<DType> input_dtypes_;
  double loosest_rtol_ = 0;

  int pick(int n) {
    if (n <= 0) throw std::logic_error("pick from nothing");
    return std::uniform_int_distribution<int>(0, n - 1)(rng_);
  }
  int between(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool coin(double p = 0.5) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  DType random_dtype() { return kGenDTypes[pick(std::size(kGenDTypes))]; }
  // an index below n, counted from the end (negative) with probability p
  int signed_index(int n, double p) {
    const int i = pick(n);
    return coin(p) ? i - n : i;
  }

  Shape random_shape() {
    Shape s(between(1, 4));
    for (int64_t& d : s) d = between(1, 6);
    return s;
  }

  static Interval input_range(DType t) {
    switch (t) {
      case Bool: return {0, 1};
      case I8: return {-10, 10};
      case U8: return {0, 20};
      case I32: case I64: return {-30, 30};
      default: return {-3, 3};
    }
  }

  Val input(const Shape& shape, DType t, double avoid = 0) {
    const Interval r = input_range(t);
    const std::vector<double> v = random_values(rng_, prod(shape), t, t == U8 && avoid > 0 ? avoid : r.lo, r.hi, avoid);
    const std::string var = fmt::format("x{}", inputs_++);
    if (v.size() <= 24) {
      lines_ +=
          fmt::format("{} = tensor([{}], dtype={}).reshape({})\n", var, fmt::join(v, ", "), name(t), shape_str(shape));
    } else {
      lines_ += fmt::format("{} = <{} random values of {} in [{}, {}]>.reshape({})\n", var, v.size(), name(t), r.lo,
                            r.hi, shape_str(shape));
    }
    input_dtypes_.insert(t);
    Val out{
        tensor(v, shape, t), var, {*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end())}, true};
    seen_.push_back(out.t);
    return out;
  }

  Val scalar(const Val& like, const ConstValue& c) {
    const double d = as_double(c);
    return Val{Tensor::scalar_like(like.t, c), const_text(c), {d, d}, true};
  }

  // A value made by `op` from `srcs`; exact only when asked and every float source is exact.
  Val made(const std::string& op, const std::string& expr, const Tensor& t, Interval r, bool exact) {
    used_.insert(op);
    seen_.push_back(t);
    if (!exact && is_float(t.dtype())) loosest_rtol_ = std::max(loosest_rtol_, tolerance_for(t.dtype()).rtol);
    return Val{t, expr, fit(t.dtype(), r), exact};
  }
  Val unary_made(const Val& v, const std::string& op, const std::string& args, const Tensor& t, Interval r,
                 bool exact) {
    return made(op, fmt::format("{}.{}({})", v.expr, op, args), t, r, exact);
  }

  bool acceptable(const Val& v) const {
    const int64_t n = v.t.numel();
    if (n < 1 || n > 1500 || v.t.ndim() > 5) return false;
    return !is_float(v.t.dtype()) || v.r.mag() <= float_budget(v.t.dtype());
  }

  Val step(const Val& v) {
    for (int tries = 0; tries < 100; tries++) {
      // a rejected attempt leaves no trace in the program
      const std::string lines = lines_;
      const int inputs = inputs_;
      const size_t seen = seen_.size();
      const std::set<std::string> used = used_;
      const double rtol = loosest_rtol_;
      std::optional<Val> next;
      const int k = pick(100);
      if (k < 30) next = unary(v);
      else if (k < 55) next = binary(v);
      else if (k < 77) next = movement(v);
      else if (k < 93) next = reduction(v);
      else next = cast(v);
      if (next && acceptable(*next)) return *next;
      lines_ = lines;
      inputs_ = inputs;
      seen_.erase(seen_.begin() + static_cast<std::ptrdiff_t>(seen), seen_.end());
      used_ = used;
      loosest_rtol_ = rtol;
    }
    return v;
  }

  // ---- element-wise, one operand ----
  std::optional<Val> unary(const Val& v) {
    const DType t = v.t.dtype();
    const Interval r = v.r;
    const double m = r.mag();
    const bool half = least_upper_float(t) == F16;
    const bool exact_float = !is_float(t) || v.exact;  // may a jump (floor, compare, ...) see it?
    const auto u = [&](const char* op, Tensor (Tensor::*fn)() const, Interval out, bool exact) {
      return unary_made(v, op, "", (v.t.*fn)(), out, exact);
    };
    switch (pick(22)) {
      case 0: return u("neg", &Tensor::neg, t == Bool ? Interval{0, 1} : Interval{-r.hi, -r.lo}, v.exact);
      case 1: return u("abs", &Tensor::abs, {r.lo >= 0 ? r.lo : r.hi <= 0 ? -r.hi : 0, m}, v.exact);
      case 2:
        if (!exact_float) return nullopt;
        return u("sign", &Tensor::sign, {-1, 1}, true);
      case 3:
        return u("square", &Tensor::square, {r.lo >= 0 ? r.lo * r.lo : r.hi <= 0 ? r.hi * r.hi : 0, m * m},
                 v.exact && !is_float(t));
      case 4: return u("relu", &Tensor::relu, {std::max(r.lo, 0.0), std::max(r.hi, 0.0)}, v.exact);
      case 5:
        if (r.hi > (half ? 2 : 10)) return nullopt;
        return u("exp", &Tensor::exp, {std::exp(r.lo), std::exp(r.hi)}, false);
      case 6:
        if (r.hi > (half ? 3 : 14)) return nullopt;
        return u("exp2", &Tensor::exp2, {std::exp2(r.lo), std::exp2(r.hi)}, false);
      case 7:
      case 8:
      case 9:
      case 10:
      case 11: {
        // defined on positives only: take |v| + 0.5 when v may be smaller than 0.25
        if (m > 1e4) return nullopt;
        const Val p = r.lo >= 0.25 ? v : positive(v);
        const double lo = p.r.lo, hi = p.r.hi;
        const auto f = [&](const char* op, Tensor (Tensor::*fn)() const, Interval out) {
          return unary_made(p, op, "", (p.t.*fn)(), out, false);
        };
        switch (pick(5)) {
          case 0: return f("log", &Tensor::log, {std::log(lo), std::log(hi)});
          case 1: return f("log2", &Tensor::log2, {std::log2(lo), std::log2(hi)});
          case 2: return f("sqrt", &Tensor::sqrt, {std::sqrt(lo), std::sqrt(hi)});
          case 3: return f("rsqrt", &Tensor::rsqrt, {1 / std::sqrt(hi), 1 / std::sqrt(lo)});
          default: return f("reciprocal", &Tensor::reciprocal, {1 / hi, 1 / lo});
        }
      }
      case 12:
        if (m > 1e4) return nullopt;
        return u("sin", &Tensor::sin, {-1, 1}, false);
      case 13:
        if (m > 1e4) return nullopt;
        return u("cos", &Tensor::cos, {-1, 1}, false);
      case 14:
        if (m > (half ? 1.0 : 1.2)) return nullopt;
        return u("tan", &Tensor::tan, {std::tan(-m), std::tan(m)}, false);
      case 15:
        if (m > 1e4) return nullopt;
        return u("sigmoid", &Tensor::sigmoid, {0, 1}, false);
      case 16:
        if (m > 1e4) return nullopt;
        return u("tanh", &Tensor::tanh, {-1, 1}, false);
      case 17:
        if (m > (half ? 8 : 100)) return nullopt;
        return unary_made(v, "gelu", "", v.t.gelu(), {-0.2, std::max(r.hi, 0.0)}, false);
      case 18:
        if (m > (half ? 60 : 1e4)) return nullopt;
        return u("silu", &Tensor::silu, {-0.3, std::max(r.hi, 0.0)}, false);
      case 19:
      case 20: {
        if (!exact_float) return nullopt;
        const std::pair<const char*, Tensor (Tensor::*)() const> fns[] = {
            {"floor", &Tensor::floor}, {"ceil", &Tensor::ceil}, {"trunc", &Tensor::trunc}, {"round", &Tensor::round}};
        const auto& [op, fn] = fns[pick(4)];
        return u(op, fn, {std::floor(r.lo), std::ceil(r.hi)}, true);
      }
      default:
        if (!exact_float) return nullopt;
        return u("logical_not", &Tensor::logical_not, {0, 1}, true);
    }
  }

  // |v| + 0.5: a value that log, sqrt, reciprocal and pow are defined on
  Val positive(const Val& v) {
    const Tensor t = v.t.abs().add(Tensor::scalar_like(v.t, 0.5));
    return made("abs", fmt::format("{}.abs().add(0.5)", v.expr), t, {0.5, v.r.mag() + 0.5},
                v.exact && !is_float(t.dtype()));
  }

  // ---- element-wise, two operands ----

  // A fresh operand that broadcasts against `shape` (either way), or a Python number.
  Val operand(const Val& v, DType t, bool nonzero) {
    if (coin(0.25)) {
      const bool integral = coin();
      double c = integral ? between(-3, 3) : between(-30, 30) / 10.0;
      if (nonzero && std::abs(c) < 1) c = c < 0 ? -1.5 : 1.5;
      return scalar(v, integral && std::trunc(c) == c ? ConstValue{static_cast<int64_t>(c)} : ConstValue{c});
    }
    Shape s = v.t.shape();
    for (int64_t& d : s) {
      if (d == 1 && coin(0.2)) d = between(2, 3);
      else if (coin(0.3)) d = 1;
    }
    if (!s.empty() && coin(0.3)) s.erase(s.begin(), s.begin() + between(1, static_cast<int>(s.size())));
    if (nonzero && t == Bool) t = I32;
    return input(s, t, nonzero ? (is_float(t) ? 0.5 : 1) : 0);
  }

  // Exact after promotion to `to`: an integer converts to a float exactly only when small.
  static bool exact_as(const Val& x, DType to) {
    if (!x.exact) return false;
    return !is_float(to) || is_float(x.t.dtype()) || x.r.mag() <= exact_int_limit(to);
  }

  std::optional<Val> binary(const Val& v) {
    static const char* const kOps[] = {"add",     "sub",         "mul",        "div",         "floordiv", "mod", "pow",
                                       "maximum", "minimum",     "lt",         "le",          "gt",       "ge",  "eq",
                                       "ne",      "logical_and", "logical_or", "bitwise_xor", "where"};
    const std::string op = kOps[pick(std::size(kOps))];
    const bool divides = op == "div" || op == "floordiv" || op == "mod";
    if (op == "pow") return power(v);
    if (op == "where") return choose(v);
    const Val w = operand(v, coin() ? v.t.dtype() : random_dtype(), divides);
    const DType pt = promote(v.t.dtype(), w.t.dtype());
    if (pt == F16 && std::max(v.r.mag(), w.r.mag()) > 6e4) return nullopt;
    const bool exact = exact_as(v, pt) && exact_as(w, pt);
    // operands in either order where the order cannot divide by zero
    const bool swap = !divides && coin(0.3);
    const Val& a = swap ? w : v;
    const Val& b = swap ? v : w;
    const std::string expr = fmt::format("{}.{}({})", a.expr, op, b.expr);
    const Interval ra = a.r, rb = b.r;
    const bool ints = !is_float(pt);
    if (op == "add") return made(op, expr, a.t.add(b.t), {ra.lo + rb.lo, ra.hi + rb.hi}, exact && ints);
    if (op == "sub") {
      if (pt == Bool) return nullopt;
      return made(op, expr, a.t.sub(b.t), {ra.lo - rb.hi, ra.hi - rb.lo}, exact && ints);
    }
    if (op == "mul") return made(op, expr, a.t.mul(b.t), products(ra, rb), exact && ints);
    if (op == "div") {
      const Interval inv = rb.lo > 0   ? Interval{1 / rb.hi, 1 / rb.lo}
                           : rb.hi < 0 ? Interval{1 / rb.hi, 1 / rb.lo}
                                       : Interval{-2, 2};
      return made(op, expr, a.t.div(b.t), products(ra, inv), false);
    }
    if (op == "floordiv" || op == "mod") {
      if (pt == Bool) return nullopt;
      if (ints && ra.lo <= dtype_limits(pt).lo) return nullopt;  // MIN // -1 overflows
      if (!ints && !exact) return nullopt;                       // a jump at every multiple
      const double qm = ra.mag() / std::max(std::min(std::abs(rb.lo), std::abs(rb.hi)), ints ? 1.0 : 0.5) + 1;
      if (op == "floordiv") return made(op, expr, a.t.floordiv(b.t), {-qm, qm}, ints || (exact && pt != F16));
      return made(op, expr, a.t.mod(b.t), {-rb.mag(), rb.mag()}, ints);
    }
    if (op == "maximum")
      return made(op, expr, a.t.maximum(b.t), {std::max(ra.lo, rb.lo), std::max(ra.hi, rb.hi)}, exact);
    if (op == "minimum")
      return made(op, expr, a.t.minimum(b.t), {std::min(ra.lo, rb.lo), std::min(ra.hi, rb.hi)}, exact);
    if (op == "logical_and" || op == "logical_or" || op == "bitwise_xor") {
      if (is_float(pt)) return nullopt;
      const bool nonneg = ra.lo >= 0 && rb.lo >= 0;
      const Interval r =
          nonneg ? Interval{0, std::exp2(std::ceil(std::log2(std::max(ra.hi, rb.hi) + 1)))} : dtype_limits(pt);
      const Tensor t = op == "logical_and"  ? a.t.logical_and(b.t)
                       : op == "logical_or" ? a.t.logical_or(b.t)
                                            : a.t.bitwise_xor(b.t);
      return made(op, expr, t, r, true);
    }
    // comparisons
    if (!exact) return nullopt;
    const Tensor t = op == "lt" ? a.t.lt(b.t) : op == "le" ? a.t.le(b.t) : op == "gt" ? a.t.gt(b.t)
                   : op == "ge" ? a.t.ge(b.t) : op == "eq" ? a.t.eq(b.t) : a.t.ne(b.t);
    return made(op, expr, t, {0, 1}, true);
  }

  std::optional<Val> power(const Val& v) {
    const DType t = v.t.dtype();
    if (is_int(t) && v.exact && v.r.mag() <= 5) {  // integer ** small integer stays an exact integer
      const Val e = input(v.t.shape(), t == U8 ? U8 : I8, 0);
      const Tensor p =
          v.t.pow(e.t.maximum(Tensor::scalar_like(e.t, int64_t{0})).minimum(Tensor::scalar_like(e.t, int64_t{3})));
      return made("pow", fmt::format("{}.pow({}.maximum(0).minimum(3))", v.expr, e.expr), p, {-125, 125}, true);
    }
    if (t == Bool || v.r.mag() > 7) return nullopt;
    if (v.r.lo < 0.25) return power(positive(v));
    if (coin(0.3)) {  // a constant exponent: exact products for integers and halves
      const double c = between(-4, 6) / 2.0;
      const Interval r = hull({std::pow(v.r.lo, c), std::pow(v.r.lo, c)}, {std::pow(v.r.hi, c), std::pow(v.r.hi, c)});
      return made("pow", fmt::format("{}.pow({})", v.expr, c), v.t.pow(ConstValue{c}), r, false);
    }
    const Val e = operand(v, is_float(t) ? t : F32, false);
    if (e.r.mag() > 3) return nullopt;
    const double m = std::pow(v.r.hi >= 1 ? v.r.hi : 1 / v.r.lo, e.r.mag());
    return made("pow", fmt::format("{}.pow({})", v.expr, e.expr), v.t.pow(e.t), {0, m}, false);
  }

  std::optional<Val> choose(const Val& v) {
    const Val other = operand(v, coin() ? v.t.dtype() : random_dtype(), false);
    const DType pt = promote(v.t.dtype(), other.t.dtype());
    if (pt == F16 && other.r.mag() > 6e4) return nullopt;
    if (coin() && v.exact) {  // the condition comes from v itself
      const Tensor cond = v.t.gt(Tensor::scalar_like(v.t, int64_t{0}));
      return made("where", fmt::format("({}.gt(0)).where({}, {})", v.expr, v.expr, other.expr),
                  cond.where(v.t, other.t), hull(v.r, other.r), exact_as(v, pt) && exact_as(other, pt));
    }
    const Val cond = input(v.t.shape(), Bool);
    return made("where", fmt::format("{}.where({}, {})", cond.expr, v.expr, other.expr), cond.t.where(v.t, other.t),
                hull(v.r, other.r), exact_as(v, pt) && exact_as(other, pt));
  }

  // ---- movement ----
  std::optional<Val> movement(const Val& v) {
    const Shape& s = v.t.shape();
    const int nd = static_cast<int>(s.size());
    const auto dim = [&] { return signed_index(nd, 0.3); };
    const auto mv = [&](const std::string& op, const std::string& args, const Tensor& t, Interval r) {
      return unary_made(v, op, args, t, r, v.exact);
    };
    static const int kScalarMoves[] = {0, 2, 10};  // a 0-d tensor can only grow dims
    switch (nd == 0 ? kScalarMoves[pick(3)] : pick(13)) {
      case 0: {  // reshape to another factorisation of the size, sometimes with -1
        Shape out;
        int64_t left = v.t.numel();
        while (left > 1) {
          std::vector<int64_t> divisors;
          for (int64_t d = 2; d <= left; d++)
            if (left % d == 0) divisors.push_back(d);
          const int64_t d = coin(0.3) || out.size() == 3 ? left : divisors[pick(static_cast<int>(divisors.size()))];
          out.push_back(d);
          left /= d;
        }
        if (out.empty() || coin(0.2)) out.insert(out.begin() + pick(static_cast<int>(out.size()) + 1), 1);
        if (coin(0.3)) out[pick(static_cast<int>(out.size()))] = -1;
        return mv("reshape", fmt::format("{}", fmt::join(out, ", ")), v.t.reshape(out), v.r);
      }
      case 1: {
        std::vector<int> order(nd);
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), rng_);
        return mv("permute", fmt::format("{}", fmt::join(order, ", ")), v.t.permute(order), v.r);
      }
      case 2: {  // grow size-1 dims, or add a leading dim
        std::vector<int64_t> out(s.begin(), s.end());
        bool grew = false;
        for (int64_t& d : out)
          if (d == 1 && coin(0.7)) d = between(2, 4), grew = true;
        if (!grew) out.insert(out.begin(), between(2, 3));
        return mv("expand", fmt::format("{}", fmt::join(out, ", ")), v.t.expand(out), v.r);
      }
      case 3: {
        std::vector<Range> p;
        std::vector<std::string> text;
        for (int i = 0; i < nd; i++) {
          p.push_back({between(0, 2), between(0, 2)});
          text.push_back(fmt::format("({}, {})", p.back().first, p.back().second));
        }
        const ConstValue value = coin(0.6) || v.t.dtype() == Bool ? ConstValue{int64_t{0}}
                                 : is_float(v.t.dtype())          ? ConstValue{between(-20, 20) / 10.0}
                                                                  : ConstValue{int64_t{between(-3, 3)}};
        const double d = as_double(value);
        return mv("pad", fmt::format("({}), value={}", fmt::join(text, ", "), const_text(value)), v.t.pad(p, value),
                  hull(v.r, {std::min(d, 0.0), std::max(d, 0.0)}));
      }
      case 4: {
        std::vector<std::optional<Range>> b;
        std::vector<std::string> text;
        for (int64_t n : s) {
          if (coin(0.3)) {
            b.push_back(nullopt);
            text.push_back("None");
            continue;
          }
          const int64_t lo = between(0, static_cast<int>(n) - 1),
                        hi = between(static_cast<int>(lo) + 1, static_cast<int>(n));
          b.push_back(Range{lo, hi});
          text.push_back(fmt::format("({}, {})", lo, hi));
        }
        return mv("shrink", fmt::format("({})", fmt::join(text, ", ")), v.t.shrink(b), v.r);
      }
      case 5: {
        std::vector<int> axes;
        for (int i = 0; i < nd; i++)
          if (coin()) axes.push_back(coin(0.3) ? i - nd : i);
        if (axes.empty()) axes.push_back(dim());
        return mv("flip", fmt::format("{}", fmt::join(axes, ", ")), v.t.flip(axes), v.r);
      }
      case 6: {
        if (nd < 2 || coin(0.3)) return mv("T", "", v.t.T(), v.r);
        const int a = dim(), b = dim();
        return mv("transpose", fmt::format("{}, {}", a, b), v.t.transpose(a, b), v.r);
      }
      case 7: return getitem(v);
      case 8: {  // cat with a fresh piece, maybe of another dtype
        const int d = dim();
        Shape piece = s;
        piece[d < 0 ? d + nd : d] = between(1, 3);
        const Val w = input(piece, coin(0.3) ? random_dtype() : v.t.dtype());
        const DType pt = promote(v.t.dtype(), w.t.dtype());
        if (pt == F16 && w.r.mag() > 6e4) return nullopt;
        return made("cat", fmt::format("{}.cat({}, dim={})", v.expr, w.expr, d), v.t.cat({w.t}, d), hull(v.r, w.r),
                    exact_as(v, pt) && exact_as(w, pt));
      }
      case 9: {
        std::vector<int64_t> reps;
        if (coin(0.3)) reps.push_back(2);
        for (int i = 0; i < nd; i++) reps.push_back(between(1, 2));
        return mv("repeat", fmt::format("{}", fmt::join(reps, ", ")), v.t.repeat(reps), v.r);
      }
      case 10: {
        const int d = signed_index(nd + 1, 0.3);
        return mv("unsqueeze", std::to_string(d), v.t.unsqueeze(d), v.r);
      }
      case 11: {
        if (coin()) return mv("squeeze", "", v.t.squeeze(), v.r);
        const int d = dim();
        return mv("squeeze", std::to_string(d), v.t.squeeze(d), v.r);
      }
      default: {
        const int a = pick(nd);
        const int b = between(a, nd - 1);
        return mv("flatten", fmt::format("{}, {}", a, b), v.t.flatten(a, b), v.r);
      }
    }
  }

  std::optional<Val> getitem(const Val& v) {
    const Shape& s = v.t.shape();
    std::vector<Index> index;
    std::vector<std::string> text;
    const auto opt = [](std::optional<int64_t> x) { return x ? std::to_string(*x) : std::string(); };
    if (coin(0.15)) {
      index.push_back(Ellipsis{});
      text.push_back("...");
    }
    const size_t dims = index.empty() ? s.size() : between(0, static_cast<int>(s.size()));
    for (size_t i = 0; i < dims; i++) {
      if (coin(0.15)) {
        index.push_back(NewAxis{});
        text.push_back("None");
      }
      const int64_t n = s[index.size() && std::holds_alternative<Ellipsis>(index[0]) ? s.size() - dims + i : i];
      if (coin(0.2)) {
        const int64_t k = signed_index(static_cast<int>(n), 0.5);
        index.push_back(k);
        text.push_back(std::to_string(k));
        continue;
      }
      const auto bound = [&]() -> std::optional<int64_t> {
        if (coin(0.4)) return nullopt;
        return between(-static_cast<int>(n) - 1, static_cast<int>(n) + 1);
      };
      const int steps[] = {1, 1, 2, 3, -1, -2, -3};
      Slice sl{bound(), bound(), coin(0.3) ? std::optional<int64_t>{} : std::optional<int64_t>{steps[pick(7)]}};
      index.push_back(sl);
      text.push_back(fmt::format("{}:{}:{}", opt(sl.start), opt(sl.stop), opt(sl.step)));
    }
    return made("getitem", fmt::format("{}[{}]", v.expr, fmt::join(text, ", ")), v.t.getitem(index), v.r, v.exact);
  }

  // ---- reductions ----
  std::optional<Val> reduction(const Val& v) {
    const DType t = v.t.dtype();
    const Shape& s = v.t.shape();
    const int nd = static_cast<int>(s.size());
    Axes axes;
    int64_t n = v.t.numel();
    if (nd > 0 && coin(0.75)) {
      axes = std::vector<int>{};
      n = 1;
      for (int i = 0; i < nd; i++)
        if (coin(0.4)) {
          axes->push_back(coin(0.3) ? i - nd : i);
          n *= s[i];
        }
      if (axes->empty()) {
        const int i = pick(nd);
        axes->push_back(i);
        n = s[i];
      }
    }
    const bool keepdim = coin();
    const std::string args = fmt::format("axis={}, keepdim={}", axes_str(axes), keepdim ? "True" : "False");
    const Interval r = v.r;
    const auto red = [&](const std::string& op, const Tensor& out, Interval range, bool exact) {
      return made(op, fmt::format("{}.{}({})", v.expr, op, args), out, range, exact);
    };
    switch (pick(10)) {
      case 0: {
        const double lo = r.lo * static_cast<double>(n), hi = r.hi * static_cast<double>(n);
        return red("sum", v.t.sum(axes, keepdim), {std::min(lo, r.lo), std::max(hi, r.hi)}, v.exact && !is_float(t));
      }
      case 1: return red("max", v.t.max(axes, keepdim), r, v.exact);
      case 2: return red("min", v.t.min(axes, keepdim), r, v.exact);
      case 3: return red("mean", v.t.mean(axes, keepdim), r, false);
      case 4: {
        const double m = std::pow(std::max(r.mag(), 1.0), static_cast<double>(n));
        if (is_float(t) && m > float_budget(t)) return nullopt;
        return red("prod", v.t.prod(axes, keepdim), {-m, m}, v.exact && !is_float(t));
      }
      case 5:
      case 6: {
        if (n < 2) return nullopt;
        const double var = 2 * (r.hi - r.lo) * (r.hi - r.lo);
        if (var > float_budget(least_upper_float(t))) return nullopt;
        if (pick(2)) return red("var", v.t.var(axes, keepdim), {0, var}, false);
        return red("std", v.t.std(axes, keepdim), {0, std::sqrt(var)}, false);
      }
      case 7: {
        if (!v.exact && is_float(t)) return nullopt;
        const std::optional<int> axis = axes ? std::optional<int>{(*axes)[0]} : std::nullopt;
        const int64_t len = axis ? s[(*axis + nd) % nd] : v.t.numel();
        const bool is_max = coin();
        const std::string op = is_max ? "argmax" : "argmin";
        const Tensor out = is_max ? v.t.argmax(axis, keepdim) : v.t.argmin(axis, keepdim);
        return made(op, fmt::format("{}.{}(axis={}, keepdim={})", v.expr, op, axis ? std::to_string(*axis) : "None",
                                    keepdim ? "True" : "False"),
                    out, {0, static_cast<double>(len - 1)}, true);
      }
      case 8: {
        if (nd == 0) return nullopt;
        const int axis = signed_index(nd, 0.5);
        const double width = r.hi - r.lo + std::log(static_cast<double>(s[(axis + nd) % nd])) + 1;
        if (coin())
          return made("softmax", fmt::format("{}.softmax({})", v.expr, axis), v.t.softmax(axis), {0, 1}, false);
        return made("log_softmax", fmt::format("{}.log_softmax({})", v.expr, axis), v.t.log_softmax(axis), {-width, 0},
                    false);
      }
      default:
        if (t == Bool) return nullopt;
        return red("logsumexp", v.t.logsumexp(axes, keepdim), {r.lo, r.hi + std::log(static_cast<double>(n))}, false);
    }
  }

  // ---- casts ----
  std::optional<Val> cast(const Val& v) {
    const DType from = v.t.dtype(), to = random_dtype();
    if (to == from) return nullopt;
    Val x = v;
    if (is_float(from) && !is_float(to)) {
      if (!v.exact) return nullopt;
      // out-of-range float to int conversions are undefined in C: clip first
      const double lim = to == I8 ? 100 : to == U8 ? 200 : 1e6, lo = to == U8 ? 0 : -lim;
      if (to != Bool && (v.r.lo < lo || v.r.hi > lim)) {
        const Tensor clipped = v.t.maximum(Tensor::scalar_like(v.t, lo)).minimum(Tensor::scalar_like(v.t, lim));
        x = made("clip", fmt::format("{}.maximum({}).minimum({})", v.expr, lo, lim), clipped,
                 {std::max(v.r.lo, lo), std::min(v.r.hi, lim)}, true);
      }
    }
    if (to == F16 && x.r.mag() > 6e4) return nullopt;
    const bool exact = is_float(to) && !is_float(from) ? exact_as(x, to) : x.exact;
    const Interval r = to == Bool ? Interval{0, 1} : x.r;
    return made("cast", fmt::format("{}.cast({})", x.expr, name(to)), x.t.cast(to), r, exact);
  }
};

constexpr int kPrograms = 300;
constexpr int kBatches = 6;

class RandomPrograms : public ::testing::TestWithParam<std::tuple<Opts, int>> {
 protected:
  ScopedOpts opts_{std::get<0>(GetParam())};
};

INSTANTIATE_TEST_SUITE_P(Cpu, RandomPrograms,
                         ::testing::Combine(both_opts(), ::testing::Range(0, kBatches)),
                         [](const auto& info) {
                           return fmt::format("Batch{}_{}", std::get<1>(info.param), opts_str(std::get<0>(info.param)));
                         });

TEST_P(RandomPrograms, MatchTheReference) {
  const int batch = std::get<1>(GetParam());
  for (int i = batch * kPrograms / kBatches; i < (batch + 1) * kPrograms / kBatches; i++) {
    ProgramGen gen(static_cast<uint64_t>(i));
    const Val out = gen.build();
    EXPECT_TRUE(matches_reference(out.t, gen.tolerance(out))) << "program " << i << ":\n" << gen.text(out);
  }
}

// The generator reaches every operation family and every dtype: a test that only ever generates
// a few ops would pass for the wrong reason.
TEST(RandomProgramGenerator, CoversEveryOpAndDtype) {
  std::set<std::string> ops;
  std::set<DType> dtypes;
  for (int i = 0; i < kPrograms; i++) {
    ProgramGen gen(static_cast<uint64_t>(i));
    gen.build();
    ops.insert(gen.ops_used().begin(), gen.ops_used().end());
    dtypes.insert(gen.input_dtypes().begin(), gen.input_dtypes().end());
  }
  for (const char* op : {"neg", "abs", "sign", "square", "relu", "exp", "exp2", "log", "log2", "sqrt", "rsqrt",
                         "reciprocal", "sin", "cos", "tan", "sigmoid", "tanh", "gelu", "silu", "floor", "ceil", "trunc",
                         "round", "logical_not", "add", "sub", "mul", "div", "floordiv", "mod", "pow", "maximum",
                         "minimum", "lt", "le", "gt", "ge", "eq", "ne", "logical_and", "logical_or", "bitwise_xor",
                         "where", "reshape", "permute", "expand", "pad", "shrink", "flip", "T", "transpose", "getitem",
                         "cat", "repeat", "unsqueeze", "squeeze", "flatten", "sum", "max", "min", "mean", "prod", "var",
                         "std", "argmax", "argmin", "softmax", "log_softmax", "logsumexp", "cast"})
    EXPECT_TRUE(ops.count(op)) << op << " never generated";
  for (DType t : kGenDTypes) EXPECT_TRUE(dtypes.count(t)) << name(t) << " never generated";
}

// ================================================================================================
// Errors: kind and message
// ================================================================================================

TEST(Errors, BadArgumentsThrowWithKindAndMessage) {
  const Tensor m = Tensor::zeros({2, 3}), v = Tensor::zeros({4}), b = Tensor::zeros({2}, Bool);
  struct Case {
    const char* what;
    std::function<void()> f;
    const char* kind;
    const char* message;
    bool exact;
  };
  const Case cases[] = {
      {"add", [&] { m.add(v); }, "shape", "cannot broadcast (2, 3) with (4,)", true},
      {"where", [&] { where(b, m, v); }, "shape", "cannot broadcast", false},
      {"lt", [&] { v.lt(m); }, "shape", "cannot broadcast (4,) with (2, 3)", true},
      {"reshape size", [&] { m.reshape({4}); }, "shape", "cannot reshape (2, 3) to (4,)", true},
      {"reshape -1",
       [&] {
         m.reshape({-1, 4});
       },
       "shape", "cannot reshape (2, 3) to (-1, 4)", true},
      {"reshape two -1",
       [&] {
         m.reshape({-1, -1});
       },
       "shape", "only one dimension can be -1", false},
      {"reshape negative",
       [&] {
         m.reshape({-2, -3});
       },
       "shape", "negative dimension", false},
      {"sum axis", [&] { m.sum(std::vector<int>{2}); }, "index", "axis 2 is out of range for a tensor of 2 dims", true},
      {"sum negative axis", [&] { m.sum(std::vector<int>{-3}); }, "index", "axis -3 is out of range", false},
      {"repeated axis",
       [&] {
         m.sum(std::vector<int>{1, -1});
       },
       "index", "repeated", false},
      {"argmax axis", [&] { m.argmax(5); }, "index", "out of range", false},
      {"softmax axis", [&] { m.softmax(2); }, "index", "out of range", false},
      {"permute length", [&] { m.permute({0}); }, "shape", "permute order must name each of the 2 dims once", true},
      {"permute repeat",
       [&] {
         m.permute({0, 0});
       },
       "shape", "permute order", false},
      {"permute range",
       [&] {
         m.permute({0, 2});
       },
       "index", "dimension 2 is out of range", false},
      {"expand",
       [&] {
         m.expand({4, 3});
       },
       "shape", "cannot expand (2, 3) to (4, 3)", true},
      {"expand fewer dims", [&] { m.expand({3}); }, "shape", "cannot expand (2, 3) to (3,)", true},
      {"pad arity",
       [&] {
         m.pad({{1, 1}});
       },
       "shape", "pad needs", false},
      {"shrink arity",
       [&] {
         m.shrink({Range{0, 1}});
       },
       "shape", "shrink needs", false},
      {"shrink bounds",
       [&] {
         m.shrink({Range{0, 3}, nullopt});
       },
       "shape", "", false},
      {"flip repeat",
       [&] {
         m.flip({1, -1});
       },
       "index", "more than once", false},
      {"transpose", [&] { m.transpose(0, 2); }, "index", "out of range", false},
      {"unsqueeze", [&] { m.unsqueeze(4); }, "index", "out of range", false},
      {"getitem bounds", [&] { v.getitem({int64_t{4}}); }, "index", "index 4 is out of bounds for dim 0 of size 4",
       true},
      {"getitem negative", [&] { v.getitem({int64_t{-5}}); }, "index", "out of bounds", false},
      {"getitem too many",
       [&] {
         v.getitem({int64_t{0}, int64_t{0}});
       },
       "index", "too many indices", false},
      {"getitem step 0",
       [&] {
         v.getitem({Slice{nullopt, nullopt, 0}});
       },
       "index", "slice step cannot be zero", true},
      {"getitem ellipses",
       [&] {
         v.getitem({Ellipsis{}, Ellipsis{}});
       },
       "index", "single ellipsis", false},
      {"cat",
       [&] {
         m.cat({Tensor::zeros({2, 4})});
       },
       "shape", "cannot cat (2, 3) with (2, 4) along dim 0", true},
      {"cat ndim", [&] { m.cat({v}); }, "shape", "cannot cat", false},
      {"matmul",
       [&] {
         m.matmul(Tensor::zeros({4, 5}));
       },
       "shape", "shapes (2, 3) and (4, 5) cannot be multiplied (3 != 4)", true},
      {"dot scalar", [&] { m.dot(Tensor::zeros({})); }, "shape", "at least 1 dim", false},
      {"item", [&] { m.item(); }, "value", "item() needs a tensor of one element, not shape (2, 3)", true},
      {"arange step", [&] { Tensor::arange(int64_t{0}, int64_t{3}, int64_t{0}); }, "value", "step", false},
      {"linspace steps", [&] { Tensor::linspace(int64_t{0}, int64_t{1}, -1); }, "value", "steps", false},
      {"eye", [&] { Tensor::eye(-1); }, "value", "non-negative", false},
      {"full negative",
       [&] {
         Tensor::full({2, -1}, int64_t{0});
       },
       "shape", "negative dimension in shape (2, -1)", true},
      {"from_host",
       [&] {
         Tensor::from_host(HostData(F32, 5), {2, 3});
       },
       "shape", "5 values cannot fill shape (2, 3)", true},
      {"logical_and float", [&] { m.logical_and(m); }, "type", "float32", false},
      {"logical_or float", [&] { m.logical_or(m); }, "type", "float32", false},
      {"bitwise_xor float", [&] { m.bitwise_xor(m); }, "type", "float32", false},
      {"sub bool", [&] { b.sub(b); }, "type", "bool", false},
      {"floordiv bool", [&] { b.floordiv(b); }, "type", "bool", false},
      {"repeat", [&] { m.repeat({2}); }, "shape", "repeat needs at least 2", false},
  };
  for (const Case& c : cases) EXPECT_TRUE(throws(c.f, c.kind, c.message, c.exact)) << c.what;
}

// ================================================================================================
// Shapes large enough for the default opts to split work over threads, vectorize and split reduces
// (last in the file: a crash here leaves every other result standing)
// ================================================================================================

class LargeShapes : public ::testing::TestWithParam<Opts> {
 protected:
  ScopedOpts opts_{GetParam()};
};
INSTANTIATE_TEST_SUITE_P(Cpu, LargeShapes, both_opts(), opts_name);

TEST_P(LargeShapes, MatchTheReference) {
  const Tensor a = random_tensor({256, 300}, F32, -1, 1, 81), b = random_tensor({96, 32}, F32, -1, 1, 82);
  const Tensor c = random_tensor({256, 300}, I32, -50, 50, 83);
  EXPECT_TRUE(matches_reference(a.add(c).relu().mul(a)));
  EXPECT_TRUE(matches_reference(a.sum(std::vector<int>{1})));
  EXPECT_TRUE(matches_reference(a.max(std::vector<int>{0})));
  EXPECT_TRUE(matches_reference(a.shrink({Range{0, 64}, Range{0, 96}}).matmul(b), Tolerance{1e-5, 1e-5}));
  EXPECT_TRUE(matches_reference(a.T().add(Tensor::scalar_like(a, 1.0)).exp()));
  EXPECT_TRUE(matches_reference(a.softmax()));
  EXPECT_TRUE(matches_reference(a.mean()));
  EXPECT_TRUE(matches_reference(c.sum()));
}

}  // namespace
}  // namespace tr
