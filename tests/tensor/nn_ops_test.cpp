// The neural-net functions of Tensor (activations, convolution, pooling, interpolate, attention,
// normalisation, losses, random initialisers): each against values computed here by plain loops and
// <cmath>, against the reference evaluator on the same lazy graph, in shape and dtype, with the edge
// cases and errors tinygrad 0.14 has.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

#include "tests/tensor_testing.h"

namespace tr {
namespace {

using testing::has_values;
using testing::matches_reference;
using testing::tensor;
using testing::throws;
using testing::values;

constexpr testing::Tolerance kLoose{2e-5, 2e-6};

std::vector<double> iota_values(int64_t n, double start = 0, double step = 1) {
  std::vector<double> out;
  for (int64_t i = 0; i < n; i++) out.push_back(start + step * static_cast<double>(i));
  return out;
}

std::vector<double> pseudo_random(int64_t n, uint32_t seed, double lo = -1, double hi = 1) {
  std::mt19937_64 rng(seed);
  return testing::random_values(rng, n, DType::Float32, lo, hi);
}

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// ---- activations and element-wise math ----------------------------------------------------------

struct Activation {
  const char* name;
  std::function<Tensor(const Tensor&)> f;
  std::function<double(double)> expected;
  double lo = -4, hi = 4;
  testing::Tolerance tol = kLoose;
};

const std::vector<Activation>& activations() {
  static const std::vector<Activation> all{
      {"leaky_relu", [](const Tensor& x) { return x.leaky_relu(); }, [](double x) { return x < 0 ? 0.01 * x : x; }},
      {"leaky_relu_slope", [](const Tensor& x) { return x.leaky_relu(0.2); }, [](double x) { return x < 0 ? 0.2 * x : x; }},
      {"elu", [](const Tensor& x) { return x.elu(); }, [](double x) { return x > 0 ? x : std::expm1(x); }},
      {"elu_alpha", [](const Tensor& x) { return x.elu(0.5); }, [](double x) { return x > 0 ? x : 0.5 * std::expm1(x); }},
      {"celu", [](const Tensor& x) { return x.celu(2.0); },
       [](double x) { return std::max(0.0, x) + std::min(0.0, 2 * std::expm1(x / 2)); }},
      {"selu", [](const Tensor& x) { return x.selu(); },
       [](double x) { return 1.0507 * (x >= 0 ? x : 1.67326 * std::expm1(x)); }},
      {"softplus", [](const Tensor& x) { return x.softplus(); }, [](double x) { return std::log1p(std::exp(x)); }},
      {"softplus_beta", [](const Tensor& x) { return x.softplus(3.0); },
       [](double x) { return std::log1p(std::exp(3 * x)) / 3; }},
      {"mish", [](const Tensor& x) { return x.mish(); }, [](double x) { return x * std::tanh(std::log1p(std::exp(x))); }},
      {"hardswish", [](const Tensor& x) { return x.hardswish(); },
       [](double x) { return x * std::clamp(x + 3, 0.0, 6.0) / 6; }},
      {"hardsigmoid", [](const Tensor& x) { return x.hardsigmoid(); },
       [](double x) { return std::clamp(x / 6 + 0.5, 0.0, 1.0); }},
      {"hardtanh", [](const Tensor& x) { return x.hardtanh(); }, [](double x) { return std::clamp(x, -1.0, 1.0); }},
      {"hardtanh_bounds", [](const Tensor& x) { return x.hardtanh(-2.5, 0.5); },
       [](double x) { return std::clamp(x, -2.5, 0.5); }},
      {"relu6", [](const Tensor& x) { return x.relu6(); }, [](double x) { return std::clamp(x, 0.0, 6.0); }, -3, 9},
      {"quick_gelu", [](const Tensor& x) { return x.quick_gelu(); }, [](double x) { return x * sigmoid(1.702 * x); }},
      {"swish", [](const Tensor& x) { return x.swish(); }, [](double x) { return x * sigmoid(x); }},
      {"logsigmoid", [](const Tensor& x) { return x.logsigmoid(); }, [](double x) { return -std::log1p(std::exp(-x)); }},
      {"softsign", [](const Tensor& x) { return x.softsign(); }, [](double x) { return x / (1 + std::abs(x)); }},
      // tinygrad's polynomial erf is good to 1.5e-7
      {"erf", [](const Tensor& x) { return x.erf(); }, [](double x) { return std::erf(x); }, -3, 3, {1e-5, 1e-6}},
      {"log10", [](const Tensor& x) { return x.log10(); }, [](double x) { return std::log10(x); }, 0.01, 1000},
      {"sinh", [](const Tensor& x) { return x.sinh(); }, [](double x) { return std::sinh(x); }},
      {"cosh", [](const Tensor& x) { return x.cosh(); }, [](double x) { return std::cosh(x); }},
      // tinygrad's polynomial asin is good to 2e-8
      {"asin", [](const Tensor& x) { return x.asin(); }, [](double x) { return std::asin(x); }, -1, 1, {1e-5, 1e-6}},
      {"acos", [](const Tensor& x) { return x.acos(); }, [](double x) { return std::acos(x); }, -1, 1, {1e-5, 1e-6}},
      {"atan", [](const Tensor& x) { return x.atan(); }, [](double x) { return std::atan(x); }, -20, 20, {1e-5, 1e-6}},
  };
  return all;
}

class ActivationValues : public ::testing::TestWithParam<size_t> {};

TEST_P(ActivationValues, MatchCMathAndTheReferenceInFloat32) {
  const Activation& a = activations()[GetParam()];
  const std::vector<double> in = iota_values(41, a.lo, (a.hi - a.lo) / 40);
  const Tensor x = tensor(in, {41});
  const Tensor y = a.f(x);
  EXPECT_EQ(y.shape(), x.shape());
  EXPECT_EQ(y.dtype(), DType::Float32);
  std::vector<double> expected;
  for (const double v : in) expected.push_back(a.expected(static_cast<float>(v)));
  EXPECT_TRUE(has_values(y, expected, a.tol)) << a.name;
  EXPECT_TRUE(matches_reference(y, a.tol)) << a.name;
  // float16 in, float16 out; an empty tensor stays empty
  EXPECT_EQ(a.f(x.cast(DType::Float16)).dtype(), DType::Float16);
  EXPECT_EQ(values(a.f(Tensor::zeros({0, 3}))).size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Each, ActivationValues, ::testing::Range<size_t>(0, activations().size()),
                         [](const ::testing::TestParamInfo<size_t>& i) { return std::string(activations()[i.param].name); });

TEST(Activations, IntegerInputsPromoteAsTinygrad) {
  const Tensor i = tensor({-3, 0, 2, 8}, DType::Int32);
  EXPECT_EQ(i.relu6().dtype(), DType::Int32);  // only int constants: stays int
  EXPECT_TRUE(has_values(i.relu6(), {0, 0, 2, 6}));
  EXPECT_EQ(i.hardtanh().dtype(), DType::Int32);
  EXPECT_TRUE(has_values(i.hardtanh(), {-1, 0, 1, 1}));
  EXPECT_EQ(i.leaky_relu().dtype(), DType::Float32);  // 0.01 * x is float
  EXPECT_TRUE(has_values(i.leaky_relu(), {-0.03, 0, 2, 8}));
  EXPECT_EQ(i.erf().dtype(), DType::Float32);
  EXPECT_EQ(i.softsign().dtype(), DType::Float32);
}

TEST(Activations, InfinitiesAndNan) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const Tensor x = tensor({-inf, inf, nan});
  EXPECT_TRUE(has_values(x.hardtanh(), {-1, 1, nan}));
  EXPECT_TRUE(has_values(x.leaky_relu(), {-inf, inf, nan}));
  EXPECT_TRUE(has_values(x.relu6(), {0, nan, 0}));  // relu(x) - relu(x - 6), as tinygrad: inf - inf
  EXPECT_TRUE(has_values(x.erf(), {-1, 1, nan}));
  EXPECT_TRUE(has_values(x.softsign(), {nan, nan, nan}));  // inf / inf, as tinygrad
}

TEST(Activations, SoftminIsSoftmaxOfTheNegation) {
  const Tensor x = tensor({1, 2, 3, 4, 6, 5}, {2, 3});
  const std::vector<double> e = {std::exp(-1.0), std::exp(-2.0), std::exp(-3.0)};
  const double s = e[0] + e[1] + e[2];
  const Tensor y = x.softmin(-1);
  EXPECT_TRUE(has_values(y.shrink({Range{0, 1}, std::nullopt}), {e[0] / s, e[1] / s, e[2] / s}));
  EXPECT_TRUE(has_values(x.softmin(0).sum(std::vector<int>{0}), {1, 1, 1}));
  EXPECT_TRUE(matches_reference(y));
}

TEST(ElementwiseMath, LogaddexpIsStableForLargeValues) {
  const Tensor a = tensor({1000, -1000, 0, 2});
  const Tensor b = tensor({1000, -1000, 0, -3});
  const Tensor y = a.logaddexp(b);
  EXPECT_TRUE(has_values(y, {1000 + std::log(2.0), -1000 + std::log(2.0), std::log(2.0), std::log(std::exp(2.0) + std::exp(-3.0))}));
  EXPECT_TRUE(matches_reference(y));
  EXPECT_EQ(a.logaddexp(tensor({1, 2}, {2, 1})).shape(), (Shape{2, 4}));  // broadcasts
}

TEST(ElementwiseMath, LerpAndFmod) {
  const Tensor a = tensor({0, 10, -4}), b = tensor({10, 20, 4});
  EXPECT_TRUE(has_values(a.lerp(b, tensor({0.5, 0.25, 1.0})), {5, 12.5, 4}));
  EXPECT_TRUE(has_values(a.lerp(b, Tensor::scalar_like(a, 0.1)), {1, 11, -3.2}));
  // fmod keeps the dividend's sign (C's fmod), unlike % (Python's, the divisor's)
  const Tensor x = tensor({-7, 7, -7, 7, 5.5});
  const Tensor d = tensor({3, -3, -3, 3, 2});
  EXPECT_TRUE(has_values(x.fmod(d), {std::fmod(-7.0, 3.0), std::fmod(7.0, -3.0), std::fmod(-7.0, -3.0), 1, 1.5}));
  const Tensor xi = tensor({-7, 7, -7, 7}, DType::Int32);
  const Tensor di = tensor({3, -3, -3, 3}, DType::Int32);
  EXPECT_EQ(xi.fmod(di).dtype(), DType::Int32);
  EXPECT_TRUE(has_values(xi.fmod(di), {-1, 1, -1, 1}));
  EXPECT_TRUE(matches_reference(xi.fmod(di)));
  EXPECT_TRUE(throws([] { tensor({1}, DType::Bool).fmod(tensor({1}, DType::Bool)); }, "type", "fmod of bool"));
}

// ---- convolution ---------------------------------------------------------------------------------

struct Conv {
  Shape x{}, w{};  // (n, cin, h, w) and (cout, cin / groups, kh, kw)
  int64_t groups = 1;
  Tensor::Ints stride{1}, dilation{1}, padding{0};
  bool bias = false;
};

// (top, bottom, left, right) from any of tinygrad's padding forms, for two spatial dims
std::array<int64_t, 4> pads_of(const Tensor::Ints& p) {
  if (p.size() == 1) return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2) return {p[0], p[0], p[1], p[1]};
  return {p[2], p[3], p[0], p[1]};
}

int64_t at2(const Tensor::Ints& v, int i) { return v.size() == 1 ? v[0] : v[static_cast<size_t>(i)]; }

// Direct convolution by loops.
std::vector<double> conv_loops(const Conv& c, const std::vector<double>& x, const std::vector<double>& w,
                               const std::vector<double>& bias, Shape& out_shape) {
  const int64_t n = c.x[0], cin = c.x[1], h = c.x[2], wd = c.x[3], cout = c.w[0], kh = c.w[2], kw = c.w[3];
  const auto [pt, pb, pl, pr] = pads_of(c.padding);
  const int64_t sh = at2(c.stride, 0), sw = at2(c.stride, 1), dh = at2(c.dilation, 0), dw = at2(c.dilation, 1);
  const int64_t oh = (h + pt + pb - dh * (kh - 1) - 1) / sh + 1, ow = (wd + pl + pr - dw * (kw - 1) - 1) / sw + 1;
  out_shape = {n, cout, oh, ow};
  const int64_t cin_g = cin / c.groups, cout_g = cout / c.groups;
  std::vector<double> out;
  for (int64_t b = 0; b < n; b++)
    for (int64_t o = 0; o < cout; o++)
      for (int64_t y = 0; y < oh; y++)
        for (int64_t xo = 0; xo < ow; xo++) {
          double acc = bias.empty() ? 0 : bias[static_cast<size_t>(o)];
          const int64_t g = o / cout_g;
          for (int64_t ci = 0; ci < cin_g; ci++)
            for (int64_t ky = 0; ky < kh; ky++)
              for (int64_t kx = 0; kx < kw; kx++) {
                const int64_t iy = y * sh - pt + ky * dh, ix = xo * sw - pl + kx * dw;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                acc += x[static_cast<size_t>(((b * cin + g * cin_g + ci) * h + iy) * wd + ix)] *
                       w[static_cast<size_t>(((o * cin_g + ci) * kh + ky) * kw + kx)];
              }
          out.push_back(acc);
        }
  return out;
}

class Conv2d : public ::testing::TestWithParam<Conv> {};

TEST_P(Conv2d, MatchesLoopsAndTheReference) {
  const Conv& c = GetParam();
  const std::vector<double> xv = pseudo_random(prod(c.x), 1), wv = pseudo_random(prod(c.w), 2);
  const std::vector<double> bv = c.bias ? pseudo_random(c.w[0], 3) : std::vector<double>{};
  Shape out_shape;
  const std::vector<double> expected = conv_loops(c, xv, wv, bv, out_shape);
  const std::optional<Tensor> bias = c.bias ? std::optional<Tensor>(tensor(bv, {c.w[0]})) : std::nullopt;
  const Tensor y = tensor(xv, c.x).conv2d(tensor(wv, c.w), bias, c.groups, c.stride, c.dilation, c.padding);
  EXPECT_EQ(y.shape(), out_shape);
  EXPECT_EQ(y.dtype(), DType::Float32);
  EXPECT_TRUE(has_values(y, expected, kLoose));
  EXPECT_TRUE(matches_reference(y, kLoose));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, Conv2d,
    ::testing::Values(Conv{{1, 1, 5, 5}, {1, 1, 3, 3}}, Conv{{2, 3, 6, 5}, {4, 3, 3, 2}, 1, {1}, {1}, {1}, true},
                      Conv{{1, 4, 7, 7}, {6, 2, 3, 3}, 2, {2}, {1}, {1, 2}},             // groups, padding per dim
                      Conv{{2, 2, 8, 7}, {3, 2, 2, 3}, 1, {2, 1}, {2}, {1, 0, 2, 1}, true},  // flat padding, dilation
                      Conv{{1, 3, 6, 6}, {3, 1, 3, 3}, 3, {1}, {1, 2}, {2}},             // depthwise, dilation per dim
                      Conv{{1, 2, 5, 5}, {2, 2, 1, 1}, 1, {3}, {1}, {-1}}));              // negative padding crops

TEST(Conv, OneSpatialDimAndIntInputs) {
  const Tensor x = tensor(iota_values(8), {1, 1, 8});
  const Tensor w = tensor({1, -1}, {1, 1, 2});
  EXPECT_TRUE(has_values(x.conv2d(w), {-1, -1, -1, -1, -1, -1, -1}));
  const Tensor xi = tensor(iota_values(9), {1, 1, 3, 3}, DType::Int32);
  const Tensor y = xi.conv2d(Tensor::ones({1, 1, 2, 2}, DType::Int32));
  EXPECT_EQ(y.dtype(), DType::Int32);
  EXPECT_TRUE(has_values(y, {8, 12, 20, 24}));  // tinygrad's docstring example
}

TEST(Conv, TransposedMatchesScatterLoops) {
  // (n, cin, h, w) with weight (cin, cout / groups, kh, kw), stride 2, padding 1, output_padding 1, groups 2
  const Shape xs{1, 4, 3, 4}, ws{4, 3, 3, 2};
  const int64_t groups = 2, s = 2, p = 1, op = 1, d = 1;
  const std::vector<double> xv = pseudo_random(prod(xs), 4), wv = pseudo_random(prod(ws), 5);
  const int64_t h = xs[2], wd = xs[3], kh = ws[2], kw = ws[3], cin_g = xs[1] / groups, cout_g = ws[1];
  const int64_t oh = (h - 1) * s - 2 * p + d * (kh - 1) + op + 1, ow = (wd - 1) * s - 2 * p + d * (kw - 1) + op + 1;
  std::vector<double> out(static_cast<size_t>(groups * cout_g * oh * ow), 0.0);
  for (int64_t ci = 0; ci < xs[1]; ci++)
    for (int64_t iy = 0; iy < h; iy++)
      for (int64_t ix = 0; ix < wd; ix++)
        for (int64_t oc = 0; oc < cout_g; oc++)
          for (int64_t ky = 0; ky < kh; ky++)
            for (int64_t kx = 0; kx < kw; kx++) {
              const int64_t y = iy * s - p + ky * d, x = ix * s - p + kx * d;
              if (y < 0 || y >= oh || x < 0 || x >= ow) continue;
              const int64_t o = (ci / cin_g) * cout_g + oc;
              out[static_cast<size_t>((o * oh + y) * ow + x)] +=
                  xv[static_cast<size_t>((ci * h + iy) * wd + ix)] * wv[static_cast<size_t>(((ci * cout_g + oc) * kh + ky) * kw + kx)];
            }
  const Tensor y = tensor(xv, xs).conv_transpose2d(tensor(wv, ws), std::nullopt, groups, {s}, {d}, {p}, {op});
  EXPECT_EQ(y.shape(), (Shape{1, groups * cout_g, oh, ow}));
  EXPECT_TRUE(has_values(y, out, kLoose));
  EXPECT_TRUE(matches_reference(y, kLoose));
  // tinygrad's docstring example
  EXPECT_TRUE(has_values(tensor(iota_values(9), {1, 1, 3, 3}).conv_transpose2d(Tensor::ones({1, 1, 2, 2})),
                         {0, 1, 3, 2, 3, 8, 12, 7, 9, 20, 24, 13, 6, 13, 15, 8}));
}

TEST(Conv, BadArgumentsSayWhatIsWrong) {
  const Tensor x = Tensor::ones({1, 3, 5, 5});
  EXPECT_TRUE(throws([&] { x.conv2d(Tensor::ones({2, 2, 3, 3})); }, "shape", "does not match weight shape (2, 2, 3, 3)"));
  EXPECT_TRUE(throws([&] { x.conv2d(Tensor::ones({2, 3, 7, 7})); }, "shape", "cannot be greater than the input size"));
  EXPECT_TRUE(throws([&] { x.conv2d(Tensor::ones({2, 3, 3})); }, "shape", "the same number of dims"));
  EXPECT_TRUE(throws([&] { x.conv2d(Tensor::ones({2, 3, 3, 3}), {}, 1, {0}); }, "value", "must be positive"));
  EXPECT_TRUE(throws([&] { x.conv2d(Tensor::ones({2, 3, 3, 3}), {}, 1, {1, 1, 1}); }, "value", "stride needs 1 or 2 values"));
  EXPECT_TRUE(throws([&] { x.conv2d(Tensor::ones({2, 3, 3, 3}), {}, 1, {1}, {1}, {1, 1, 1}); }, "value",
                     "padding must be an int or a sequence of length 2 or 4"));
  EXPECT_TRUE(throws([&] { x.conv2d(Tensor::ones({2, 3, 3, 3}), Tensor::ones({3})); }, "shape", "does not match 2 output"));
  EXPECT_TRUE(throws([&] { x.conv2d(Tensor::ones({4, 1, 3, 3}), {}, 0); }, "value", "groups must be positive"));
}

// ---- pooling -------------------------------------------------------------------------------------

struct Pool {
  Tensor::Ints k{}, stride{}, dilation{1}, padding{0};
  bool ceil_mode = false, count_include_pad = true;
};

// torch's pooling rules by loops (tinygrad 0.14 is tested against torch): one output size per dim
// and, for avg, torch's divisor.
std::vector<double> pool_loops(const Pool& p, bool max, const std::vector<double>& x, int64_t h, int64_t w, Shape& out) {
  const int64_t kh = p.k[0], kw = p.k[1];
  const Tensor::Ints s = p.stride.empty() ? p.k : p.stride;
  const int64_t sh = at2(s, 0), sw = at2(s, 1), dh = at2(p.dilation, 0), dw = at2(p.dilation, 1);
  const int64_t ph = at2(p.padding, 0), pw = at2(p.padding, 1);
  const auto size = [&](int64_t in, int64_t k, int64_t st, int64_t d, int64_t pad) {
    const int64_t span = in + 2 * pad - d * (k - 1) - 1;
    int64_t o = (p.ceil_mode ? (span + st - 1) / st : span / st) + 1;
    if (p.ceil_mode && (o - 1) * st >= in + pad) o--;  // the last window must start inside the input or left pad
    return o;
  };
  const int64_t oh = size(h, kh, sh, dh, ph), ow = size(w, kw, sw, dw, pw);
  out = {oh, ow};
  std::vector<double> res;
  for (int64_t y = 0; y < oh; y++)
    for (int64_t xo = 0; xo < ow; xo++) {
      double acc = max ? -std::numeric_limits<double>::infinity() : 0;
      int64_t count = 0;
      for (int64_t ky = 0; ky < kh; ky++)
        for (int64_t kx = 0; kx < kw; kx++) {
          const int64_t iy = y * sh - ph + ky * dh, ix = xo * sw - pw + kx * dw;
          if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
          const double v = x[static_cast<size_t>(iy * w + ix)];
          acc = max ? std::max(acc, v) : acc + v;
          count++;
        }
      if (!max) {
        const int64_t y0 = y * sh - ph, x0 = xo * sw - pw;
        const int64_t y1 = std::min(y0 + kh, h + ph), x1 = std::min(x0 + kw, w + pw);
        acc /= static_cast<double>(p.count_include_pad ? (y1 - y0) * (x1 - x0) : count);
      }
      res.push_back(acc);
    }
  return res;
}

class Pooling : public ::testing::TestWithParam<Pool> {};

TEST_P(Pooling, MaxAndAvgMatchTorchRulesAndTheReference) {
  const Pool& p = GetParam();
  const int64_t h = 7, w = 6;
  const std::vector<double> xv = pseudo_random(h * w, 7, -5, 5);
  const Tensor x = tensor(xv, {1, 1, h, w});
  Shape out;
  const std::vector<double> mx = pool_loops(p, true, xv, h, w, out);
  const Tensor ym = x.max_pool2d(p.k, p.stride, p.dilation, p.padding, p.ceil_mode);
  EXPECT_EQ(ym.shape(), (Shape{1, 1, out[0], out[1]}));
  EXPECT_TRUE(has_values(ym, mx));
  EXPECT_TRUE(matches_reference(ym));
  if (p.dilation != Tensor::Ints{1}) return;  // torch's avg_pool2d has no dilation
  const std::vector<double> av = pool_loops(p, false, xv, h, w, out);
  const Tensor ya = x.avg_pool2d(p.k, p.stride, p.dilation, p.padding, p.ceil_mode, p.count_include_pad);
  EXPECT_EQ(ya.shape(), (Shape{1, 1, out[0], out[1]}));
  EXPECT_TRUE(has_values(ya, av, kLoose));
  EXPECT_TRUE(matches_reference(ya, kLoose));
}

INSTANTIATE_TEST_SUITE_P(Options, Pooling,
                         ::testing::Values(Pool{{2, 2}}, Pool{{3, 3}, {2}}, Pool{{3, 2}, {1, 2}},
                                           Pool{{2, 2}, {}, {1}, {1}}, Pool{{3, 3}, {2}, {1}, {1}, false, false},
                                           Pool{{2, 2}, {}, {1}, {0}, true}, Pool{{3, 3}, {2}, {1}, {1}, true},
                                           Pool{{3, 3}, {2}, {1}, {1}, true, false}, Pool{{2, 2}, {1}, {2}},
                                           Pool{{2, 3}, {2}, {2, 1}, {1}, true}));

// The max's gradient compares each element with the max: both must round alike in every kernel that
// computes them (a conv's output + bias, fused into two kernels, once rounded two ways).
TEST(Pooling, MaxPoolGradientOfAConvOnTheDeviceMatchesTheReference) {
  const Tensor x = Tensor::rand({2, 1, 6, 6}, 31), w = Tensor::randn({3, 1, 3, 3}, 32), b = Tensor::randn({3}, 33);
  const Tensor m = x.conv2d(w, b, 1, {1}, {1}, {1}).max_pool2d();
  const std::vector<Tensor> g = m.mul(m).sum().gradient({w, b});
  EXPECT_TRUE(matches_reference(g[0], kLoose));
  EXPECT_TRUE(matches_reference(g[1], kLoose));
}

TEST(Pooling, DtypesAndErrors) {
  const Tensor xi = tensor(iota_values(25), {1, 1, 5, 5}, DType::Int32);
  EXPECT_EQ(xi.max_pool2d().dtype(), DType::Int32);
  EXPECT_TRUE(has_values(xi.max_pool2d(), {6, 8, 16, 18}));  // tinygrad's docstring example
  EXPECT_TRUE(has_values(xi.max_pool2d({2, 2}, {}, {1}, {1}), {0, 2, 4, 10, 12, 14, 20, 22, 24}));  // padding is the minimum int
  EXPECT_EQ(xi.avg_pool2d().dtype(), DType::Float32);
  EXPECT_TRUE(has_values(xi.avg_pool2d(), {3, 5, 13, 15}));
  EXPECT_TRUE(throws([&] { xi.max_pool2d({6, 6}); }, "shape", "cannot be greater than the input size"));
  EXPECT_TRUE(throws([&] { tensor({1, 2}).max_pool2d(); }, "shape", "needs at least 2 dims"));
  EXPECT_TRUE(throws([&] { xi.avg_pool2d({2, 2}, {0}); }, "value", "must be positive"));
}

// ---- interpolate ---------------------------------------------------------------------------------

// torch's source position of output i along a dim of in -> out
std::vector<double> resample_1d(const std::vector<double>& x, int64_t out, Tensor::Interpolation mode, bool align) {
  const auto in = static_cast<int64_t>(x.size());
  std::vector<double> y;
  for (int64_t i = 0; i < out; i++) {
    const double scale = static_cast<double>(in) / static_cast<double>(out);
    if (mode == Tensor::Interpolation::Nearest || mode == Tensor::Interpolation::NearestExact) {
      const double at = mode == Tensor::Interpolation::Nearest ? static_cast<double>(i) * scale
                                                               : (static_cast<double>(i) + 0.5) * scale;
      y.push_back(x[static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(std::floor(at)), in - 1))]);
      continue;
    }
    double src = align ? (out > 1 ? static_cast<double>(i) * static_cast<double>(in - 1) / static_cast<double>(out - 1) : 0)
                       : std::max(0.0, (static_cast<double>(i) + 0.5) * scale - 0.5);
    src = std::min(src, static_cast<double>(in - 1));
    const auto lo = static_cast<int64_t>(std::floor(src));
    const int64_t hi = std::min(lo + 1, in - 1);
    const double f = src - static_cast<double>(lo);
    y.push_back(x[static_cast<size_t>(lo)] * (1 - f) + x[static_cast<size_t>(hi)] * f);
  }
  return y;
}

TEST(Interpolate, EachModeMatchesTorchRulesOnTwoDims) {
  const int64_t h = 3, w = 4;
  const std::vector<double> xv = pseudo_random(h * w, 9);
  for (const auto mode : {Tensor::Interpolation::Linear, Tensor::Interpolation::Nearest, Tensor::Interpolation::NearestExact}) {
    for (const bool align : {false, true}) {
      if (align && mode != Tensor::Interpolation::Linear) continue;
      for (const auto& [oh, ow] : {std::pair<int64_t, int64_t>{5, 7}, {2, 3}, {3, 4}, {1, 9}}) {
        // separable: along w first, then along h, as tinygrad
        std::vector<double> rows;
        for (int64_t y = 0; y < h; y++) {
          const std::vector<double> r = resample_1d(std::vector<double>(xv.begin() + y * w, xv.begin() + (y + 1) * w), ow, mode, align);
          rows.insert(rows.end(), r.begin(), r.end());
        }
        std::vector<double> expected(static_cast<size_t>(oh * ow));
        for (int64_t c = 0; c < ow; c++) {
          std::vector<double> col;
          for (int64_t y = 0; y < h; y++) col.push_back(rows[static_cast<size_t>(y * ow + c)]);
          const std::vector<double> r = resample_1d(col, oh, mode, align);
          for (int64_t y = 0; y < oh; y++) expected[static_cast<size_t>(y * ow + c)] = r[static_cast<size_t>(y)];
        }
        const Tensor out = tensor(xv, {1, 1, h, w}).interpolate({oh, ow}, mode, align);
        EXPECT_EQ(out.shape(), (Shape{1, 1, oh, ow}));
        EXPECT_TRUE(has_values(out, expected, kLoose)) << static_cast<int>(mode) << " " << align << " " << oh << "x" << ow;
        EXPECT_TRUE(matches_reference(out, kLoose));
      }
    }
  }
}

TEST(Interpolate, KeepsTheDtypeAndChecksItsArguments) {
  // tinygrad's docstring example: ints in, ints out
  const Tensor t = tensor({1, 2, 3, 4, 21, 22, 23, 24, 41, 42, 43, 44}, {3, 4}, DType::Int32);
  const Tensor y = t.interpolate({2, 3});
  EXPECT_EQ(y.dtype(), DType::Int32);
  EXPECT_TRUE(has_values(y, {6, 7, 8, 36, 37, 38}));
  EXPECT_TRUE(throws([&] { t.interpolate({1, 2, 3}); }, "value", "interpolate needs 1 to 2 sizes"));
  EXPECT_TRUE(throws([&] { t.interpolate({0}); }, "value", "must be positive"));
  EXPECT_TRUE(throws([&] { t.interpolate({2}, Tensor::Interpolation::Nearest, true); }, "value", "align_corners"));
}

// ---- attention -----------------------------------------------------------------------------------

std::vector<double> attention_loops(const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v,
                                    int64_t b, int64_t l, int64_t s, int64_t d, const std::function<double(int64_t, int64_t)>& mask) {
  std::vector<double> out;
  for (int64_t n = 0; n < b; n++)
    for (int64_t i = 0; i < l; i++) {
      std::vector<double> score;
      for (int64_t j = 0; j < s; j++) {
        double dot = 0;
        for (int64_t e = 0; e < d; e++) dot += q[static_cast<size_t>((n * l + i) * d + e)] * k[static_cast<size_t>((n * s + j) * d + e)];
        score.push_back(dot / std::sqrt(static_cast<double>(d)) + mask(i, j));
      }
      const double m = *std::max_element(score.begin(), score.end());
      double total = 0;
      for (double& x : score) total += (x = std::exp(x - m));
      for (int64_t e = 0; e < d; e++) {
        double acc = 0;
        for (int64_t j = 0; j < s; j++) acc += score[static_cast<size_t>(j)] / total * v[static_cast<size_t>((n * s + j) * d + e)];
        out.push_back(acc);
      }
    }
  return out;
}

TEST(Attention, PlainCausalAndMasked) {
  const int64_t b = 2, l = 3, s = 4, d = 5;
  const std::vector<double> q = pseudo_random(b * l * d, 11), k = pseudo_random(b * s * d, 12), v = pseudo_random(b * s * d, 13);
  const Tensor tq = tensor(q, {b, l, d}), tk = tensor(k, {b, s, d}), tv = tensor(v, {b, s, d});
  const double inf = std::numeric_limits<double>::infinity();
  const Tensor plain = tq.scaled_dot_product_attention(tk, tv);
  EXPECT_EQ(plain.shape(), (Shape{b, l, d}));
  EXPECT_TRUE(has_values(plain, attention_loops(q, k, v, b, l, s, d, [](int64_t, int64_t) { return 0.0; }), kLoose));
  EXPECT_TRUE(matches_reference(plain, kLoose));
  const Tensor causal = tq.scaled_dot_product_attention(tk, tv, std::nullopt, true);
  EXPECT_TRUE(has_values(causal, attention_loops(q, k, v, b, l, s, d, [&](int64_t i, int64_t j) { return j <= i ? 0.0 : -inf; }), kLoose));
  // a bool mask keeps where true; a float mask is added
  std::vector<double> keep, add;
  for (int64_t i = 0; i < l; i++)
    for (int64_t j = 0; j < s; j++) keep.push_back((i + j) % 2 == 0), add.push_back(0.1 * static_cast<double>(i - j));
  EXPECT_TRUE(has_values(tq.scaled_dot_product_attention(tk, tv, tensor(keep, {l, s}, DType::Bool)),
                         attention_loops(q, k, v, b, l, s, d, [&](int64_t i, int64_t j) { return (i + j) % 2 == 0 ? 0.0 : -inf; }), kLoose));
  EXPECT_TRUE(has_values(tq.scaled_dot_product_attention(tk, tv, tensor(add, {l, s})),
                         attention_loops(q, k, v, b, l, s, d, [&](int64_t i, int64_t j) { return 0.1 * static_cast<double>(i - j); }), kLoose));
  EXPECT_TRUE(throws([&] { tq.scaled_dot_product_attention(tk, tv, tensor(add, {l, s}), true); }, "value", "cannot set attn_mask"));
}

TEST(Attention, GroupedQueryHeadsShareKeys) {
  // 4 query heads over 2 key heads: heads 0,1 use key head 0 and heads 2,3 key head 1
  const std::vector<double> q = pseudo_random(4 * 3 * 2, 21), k = pseudo_random(2 * 3 * 2, 22), v = pseudo_random(2 * 3 * 2, 23);
  const Tensor tq = tensor(q, {1, 4, 3, 2}), tk = tensor(k, {1, 2, 3, 2}), tv = tensor(v, {1, 2, 3, 2});
  const Tensor y = tq.scaled_dot_product_attention(tk, tv, std::nullopt, false, true);
  EXPECT_EQ(y.shape(), (Shape{1, 4, 3, 2}));
  const Tensor kk = tk.unsqueeze(2).expand({1, 2, 2, 3, 2}).reshape({1, 4, 3, 2});
  const Tensor vv = tv.unsqueeze(2).expand({1, 2, 2, 3, 2}).reshape({1, 4, 3, 2});
  EXPECT_TRUE(has_values(y, values(tq.scaled_dot_product_attention(kk, vv)), kLoose));
  EXPECT_TRUE(throws([&] { tq.scaled_dot_product_attention(tensor(pseudo_random(18, 1), {1, 3, 3, 2}), tv, std::nullopt, false, true); },
                     "shape", "enable_gqa"));
}

// ---- normalisation -------------------------------------------------------------------------------

TEST(Normalisation, LayernormAndBatchnorm) {
  const std::vector<double> xv = pseudo_random(2 * 3 * 4, 31, -3, 3);
  const Tensor x = tensor(xv, {2, 3, 4});
  std::vector<double> expected;
  for (int r = 0; r < 6; r++) {
    const auto row = std::vector<double>(xv.begin() + r * 4, xv.begin() + r * 4 + 4);
    const double mean = std::accumulate(row.begin(), row.end(), 0.0) / 4;
    double var = 0;
    for (const double v : row) var += (v - mean) * (v - mean) / 4;
    for (const double v : row) expected.push_back((v - mean) / std::sqrt(var + 1e-5));
  }
  EXPECT_TRUE(has_values(x.layernorm(), expected, kLoose));
  EXPECT_TRUE(matches_reference(x.layernorm({1, 2}, 1e-3), kLoose));
  // batchnorm over axis 1: (x - mean[c]) * weight[c] * invstd[c] + bias[c]
  const Tensor mean = tensor({0.5, -1, 2}), invstd = tensor({2, 0.5, 1}), w = tensor({1, 2, 3}), b = tensor({0, 1, -1});
  std::vector<double> bn;
  const double mv[] = {0.5, -1, 2}, iv[] = {2, 0.5, 1}, wv[] = {1, 2, 3}, bv[] = {0, 1, -1};
  for (int n = 0; n < 2; n++)
    for (int c = 0; c < 3; c++)
      for (int i = 0; i < 4; i++) bn.push_back((xv[static_cast<size_t>((n * 3 + c) * 4 + i)] - mv[c]) * wv[c] * iv[c] + bv[c]);
  EXPECT_TRUE(has_values(x.batchnorm(w, b, mean, invstd), bn, kLoose));
  EXPECT_TRUE(matches_reference(x.batchnorm(std::nullopt, std::nullopt, mean, invstd), kLoose));
  EXPECT_TRUE(throws([&] { x.batchnorm(w, b, mean, invstd, {3}); }, "index", "axis 3 is out of range"));
}

// ---- losses --------------------------------------------------------------------------------------

TEST(Losses, BinaryCrossentropyWithAndWithoutLogits) {
  const std::vector<double> p = {0.1, 0.9, 0.2, 0.6}, y = {0, 1, 0, 1};
  double total = 0;
  std::vector<double> each;
  for (size_t i = 0; i < p.size(); i++) each.push_back(-(y[i] * std::log(p[i]) + (1 - y[i]) * std::log(1 - p[i]))), total += each.back();
  EXPECT_TRUE(has_values(tensor(p).binary_crossentropy(tensor(y)), {total / 4}, kLoose));
  EXPECT_TRUE(has_values(tensor(p).binary_crossentropy(tensor(y), Tensor::Reduction::Sum), {total}, kLoose));
  EXPECT_TRUE(has_values(tensor(p).binary_crossentropy(tensor(y, DType::Int32), Tensor::Reduction::None), each, kLoose));
  // logits, with pos_weight scaling the positive term; large logits stay finite
  const std::vector<double> z = {-1, 2, -3, 50};
  const std::vector<double> pw = {1, 2, 3, 0.5};
  std::vector<double> expected;
  for (size_t i = 0; i < z.size(); i++) {
    const double log_p = -std::log1p(std::exp(-z[i])), log_q = -z[i] - std::log1p(std::exp(-z[i]));
    expected.push_back(-(pw[i] * y[i] * log_p + (1 - y[i]) * log_q));
  }
  const Tensor l = tensor(z).binary_crossentropy_logits(tensor(y), Tensor::Reduction::None, tensor(pw));
  EXPECT_TRUE(has_values(l, expected, kLoose));
  EXPECT_TRUE(matches_reference(l, kLoose));
}

// -log_softmax(x)[label] per row of (n, c) logits
std::vector<double> nll_rows(const std::vector<double>& x, int64_t c, const std::vector<int>& labels) {
  std::vector<double> out;
  for (size_t r = 0; r < labels.size(); r++) {
    const auto row = std::vector<double>(x.begin() + static_cast<int64_t>(r) * c, x.begin() + static_cast<int64_t>(r + 1) * c);
    const double m = *std::max_element(row.begin(), row.end());
    double s = 0;
    for (const double v : row) s += std::exp(v - m);
    out.push_back(-(row[static_cast<size_t>(labels[r])] - m - std::log(s)));
  }
  return out;
}

TEST(Losses, SparseCategoricalAndCrossEntropy) {
  const int64_t n = 4, c = 3;
  const std::vector<double> xv = pseudo_random(n * c, 41, -2, 2);
  const std::vector<int> labels = {1, 2, 0, 2};
  const Tensor x = tensor(xv, {n, c}), y = tensor({1, 2, 0, 2}, DType::Int32);
  const std::vector<double> rows = nll_rows(xv, c, labels);
  const double mean = std::accumulate(rows.begin(), rows.end(), 0.0) / n;
  EXPECT_TRUE(has_values(x.sparse_categorical_crossentropy(y), {mean}, kLoose));
  EXPECT_TRUE(has_values(x.cross_entropy(y), {mean}, kLoose));
  EXPECT_TRUE(has_values(x.cross_entropy(y, Tensor::Reduction::None), rows, kLoose));
  EXPECT_TRUE(has_values(x.sparse_categorical_crossentropy(y, -1, 0, Tensor::Reduction::Sum), {mean * n}, kLoose));
  // ignore_index drops rows from the sum and from the count
  EXPECT_TRUE(has_values(x.sparse_categorical_crossentropy(y, 2), {(rows[0] + rows[2]) / 2}, kLoose));
  // label smoothing mixes in the mean of -log_softmax over the classes
  double smooth = 0;
  for (int64_t r = 0; r < n; r++) {
    double all = 0;
    for (int64_t k = 0; k < c; k++) all += nll_rows(xv, c, std::vector<int>(static_cast<size_t>(n), static_cast<int>(k)))[static_cast<size_t>(r)];
    smooth += 0.9 * rows[static_cast<size_t>(r)] + 0.1 * all / c;
  }
  EXPECT_TRUE(has_values(x.sparse_categorical_crossentropy(y, -1, 0.1), {smooth / n}, kLoose));
  EXPECT_TRUE(has_values(x.cross_entropy(y, Tensor::Reduction::Mean, 0.1), {smooth / n}, kLoose));
  // probabilities as targets, and 1-d logits (classes on dim 0)
  const Tensor probs = tensor({0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1}, {n, c});
  EXPECT_TRUE(has_values(x.cross_entropy(probs), {mean}, kLoose));
  EXPECT_TRUE(has_values(tensor({1, 2, 3}).cross_entropy(tensor({2}, {}, DType::Int32)),
                         {nll_rows({1, 2, 3}, 3, {2})[0]}, kLoose));
  EXPECT_TRUE(throws([&] { x.cross_entropy(tensor({1, 2}, DType::Int32)); }, "shape", "shape mismatch"));
  EXPECT_TRUE(throws([&] { x.cross_entropy(y, Tensor::Reduction::Mean, 1.5); }, "value", "label_smoothing must be in [0.0, 1.0]"));
  EXPECT_TRUE(throws([&] { x.sparse_categorical_crossentropy(tensor({1, 2, 0, 2})); }, "type", "class indices must be an integer"));
}

TEST(Losses, NllLossWithWeightAndIgnoreIndex) {
  const int64_t n = 4, c = 3;
  const std::vector<double> xv = pseudo_random(n * c, 43, -2, 2);
  const Tensor logp = tensor(xv, {n, c}), y = tensor({1, 2, 0, 2}, DType::Int32), w = tensor({0.5, 2, 1});
  const double wv[] = {0.5, 2, 1};
  const int labels[] = {1, 2, 0, 2};
  double sum = 0, wsum = 0, sum_ignored = 0, wsum_ignored = 0;
  std::vector<double> each;
  for (int r = 0; r < n; r++) {
    const double l = -xv[static_cast<size_t>(r * c + labels[r])] * wv[labels[r]];
    each.push_back(l);
    sum += l, wsum += wv[labels[r]];
    if (labels[r] != 2) sum_ignored += l, wsum_ignored += wv[labels[r]];
  }
  EXPECT_TRUE(has_values(logp.nll_loss(y, w), {sum / wsum}, kLoose));
  EXPECT_TRUE(has_values(logp.nll_loss(y, w, 2), {sum_ignored / wsum_ignored}, kLoose));
  EXPECT_TRUE(has_values(logp.nll_loss(y, w, std::nullopt, Tensor::Reduction::None), each, kLoose));
  EXPECT_TRUE(matches_reference(logp.nll_loss(y, std::nullopt, 0, Tensor::Reduction::Sum), kLoose));
  // (n, c, d) with targets (n, d)
  EXPECT_EQ(tensor(pseudo_random(12, 1), {2, 3, 2}).nll_loss(tensor({0, 1, 2, 0}, {2, 2}, DType::Int32), {}, {},
                                                             Tensor::Reduction::None).shape(), (Shape{2, 2}));
  EXPECT_TRUE(throws([&] { logp.nll_loss(tensor({1, 2}, {1, 2}, DType::Int32)); }, "shape", "nll_loss needs"));
  EXPECT_TRUE(throws([&] { logp.nll_loss(y, tensor({1, 2})); }, "shape", "weight must have shape (3,)"));
}

// ---- random initialisers -------------------------------------------------------------------------

struct Stats {
  double mean = 0, stddev = 0, lo = 0, hi = 0;
};

Stats stats_of(const Tensor& t) {
  const std::vector<double> v = values(t);
  Stats s{0, 0, *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end())};
  for (const double x : v) s.mean += x / static_cast<double>(v.size());
  for (const double x : v) s.stddev += (x - s.mean) * (x - s.mean) / static_cast<double>(v.size());
  s.stddev = std::sqrt(s.stddev);
  return s;
}

TEST(RandomInit, StatisticsOfEachInitialiser) {
  const Stats u = stats_of(Tensor::uniform({100, 100}, -2, 3, 1));
  EXPECT_GE(u.lo, -2);
  EXPECT_LT(u.hi, 3);
  EXPECT_NEAR(u.mean, 0.5, 0.05);
  EXPECT_NEAR(u.stddev, 5 / std::sqrt(12.0), 0.05);
  const Stats n = stats_of(Tensor::normal({100, 100}, 3, 0.5, 2));
  EXPECT_NEAR(n.mean, 3, 0.02);
  EXPECT_NEAR(n.stddev, 0.5, 0.02);
  const Tensor r = Tensor::randint({10000}, -3, 4, 3);
  EXPECT_EQ(r.dtype(), DType::Int32);
  const Stats ri = stats_of(r);
  EXPECT_EQ(ri.lo, -3);
  EXPECT_EQ(ri.hi, 3);  // high is exclusive; every value in between is drawn
  EXPECT_NEAR(ri.mean, 0, 0.1);
  const double glorot = std::sqrt(6.0 / (64 + 32 * 9));
  const Stats g = stats_of(Tensor::glorot_uniform({64, 32, 3, 3}, 4));
  EXPECT_GE(g.lo, -glorot);
  EXPECT_LT(g.hi, glorot);
  EXPECT_NEAR(g.stddev, glorot / std::sqrt(3.0), 0.01);
  const double kaiming = std::sqrt(6.0 / (1 + 0.01 * 0.01) / (32 * 9));
  const Stats k = stats_of(Tensor::kaiming_uniform({64, 32, 3, 3}, 0.01, 5));
  EXPECT_GE(k.lo, -kaiming);
  EXPECT_LT(k.hi, kaiming);
  EXPECT_NEAR(k.stddev, kaiming / std::sqrt(3.0), 0.01);
  EXPECT_EQ(Tensor::uniform({3}, 0, 1, 0, DType::Float16).dtype(), DType::Float16);
}

TEST(RandomInit, KaimingNormalAndScaledUniformScaleTheSameStreams) {
  const double std = std::sqrt(2.0 / (1 + 0.2 * 0.2) / (32 * 9));
  const Stats k = stats_of(Tensor::kaiming_normal({64, 32, 3, 3}, 0.2, 6));
  EXPECT_NEAR(k.mean, 0, 0.005);
  EXPECT_NEAR(k.stddev, std, 0.005);
  const std::vector<double> kn = values(Tensor::kaiming_normal({4, 5}, 0.01, 9)), n = values(Tensor::normal({4, 5}, 0, 1, 9));
  for (size_t i = 0; i < kn.size(); i++) EXPECT_NEAR(kn[i], n[i] * std::sqrt(2.0 / (1 + 0.01 * 0.01) / 5), 1e-6);
  const std::vector<double> su = values(Tensor::scaled_uniform({4, 25}, 9)), u = values(Tensor::uniform({4, 25}, -1, 1, 9));
  for (size_t i = 0; i < su.size(); i++) EXPECT_NEAR(su[i], u[i] / 10, 1e-7);
  EXPECT_EQ(Tensor::scaled_uniform({3}, 0, DType::Float16).dtype(), DType::Float16);
  EXPECT_TRUE(throws([] { Tensor::kaiming_normal({-3, 3}); }, "shape", "negative dimension"));
  EXPECT_TRUE(throws([] { Tensor::scaled_uniform({2, -3, 0}); }, "shape", "negative dimension"));
}

TEST(RandomInit, TheSameSeedGivesTheSameNumbersAndAnotherSeedOthers) {
  const auto draw = [](uint64_t seed) {
    return std::vector<std::vector<double>>{values(Tensor::uniform({50}, -1, 1, seed)), values(Tensor::normal({50}, 0, 1, seed)),
                                            values(Tensor::randint({50}, 0, 1000, seed)),
                                            values(Tensor::glorot_uniform({5, 10}, seed)),
                                            values(Tensor::kaiming_uniform({5, 10}, 0.01, seed))};
  };
  const auto a = draw(7), b = draw(7), c = draw(8);
  for (size_t i = 0; i < a.size(); i++) {
    EXPECT_EQ(a[i], b[i]) << i;
    EXPECT_NE(a[i], c[i]) << i;
  }
  // uniform is rand scaled: the same stream
  const std::vector<double> r = values(Tensor::rand({50}, 7)), u = values(Tensor::uniform({50}, -1, 1, 7));
  for (size_t i = 0; i < r.size(); i++) EXPECT_NEAR(u[i], static_cast<float>(2 * r[i]) - 1, 1e-6);
}

TEST(RandomInit, BadArgumentsSayWhatIsWrong) {
  EXPECT_TRUE(throws([] { Tensor::uniform({3}, 1, 1); }, "value", "uniform requires low < high"));
  EXPECT_TRUE(throws([] { Tensor::normal({3}, 0, -1); }, "value", "normal requires std >= 0"));
  EXPECT_TRUE(throws([] { Tensor::randint({3}, 5, 2); }, "value", "randint requires low < high"));
  EXPECT_TRUE(throws([] { Tensor::randint({3}, 0, 2, 0, DType::Float32); }, "type", "randint needs an integer dtype"));
  EXPECT_TRUE(throws([] { Tensor::glorot_uniform({}); }, "shape", "at least one dim"));
}

}  // namespace
}  // namespace tr
