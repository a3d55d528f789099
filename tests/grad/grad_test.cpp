// Gradients (core/grad) against numerical gradients: for each differentiable op, on random shapes,
// in float32 and float64, the gradient graph and central differences are both evaluated by the
// reference evaluator, so the rules are checked apart from scheduling and codegen. backward() and
// the optimizer-facing pieces (grad, assign, detach) are checked on the default device.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "core/reference/reference.h"
#include "core/tensor/tensor.h"
#include "core/tensor/einsum.h"
#include "core/tensor/index.h"
#include "core/tensor/layout.h"
#include "core/tensor/logic.h"
#include "core/tensor/scan.h"
#include "core/tensor/sort.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

struct Case {
  const char* name;
  int inputs;  // how many tensor inputs of the drawn shape
  Fn f;
  double low = -2, high = 2;  // the inputs' range (positive for log, sqrt)
};

std::vector<double> reference_values(const Tensor& t) { return testing::values(reference_eval(t.node())); }

std::vector<double> draw(std::mt19937& rng, int64_t n, double low, double high) {
  std::uniform_real_distribution<double> u(low, high);
  std::vector<double> out(static_cast<size_t>(n));
  for (double& v : out) v = u(rng);
  return out;
}

// loss = sum(f(xs) * w) with a fixed random w: its gradient is f's vector-Jacobian product with w.
Tensor loss_of(const Case& c, const std::vector<Tensor>& xs, const std::vector<double>& w_values) {
  const Tensor y = c.f(xs);
  const Tensor w = testing::tensor(w_values, y.shape(), y.dtype());
  return y.mul(w).sum();
}

void check_case(const Case& c, DType dtype, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> dim(2, 4);
  const Shape shape{dim(rng), dim(rng), dim(rng)};
  std::vector<std::vector<double>> inputs;
  std::vector<Tensor> xs;
  for (int i = 0; i < c.inputs; i++) {
    inputs.push_back(draw(rng, prod(shape), c.low, c.high));
    xs.push_back(testing::tensor(inputs.back(), shape, dtype));
  }
  const Tensor y = c.f(xs);
  const std::vector<double> w = draw(rng, prod(y.shape()), -1, 1);
  const std::vector<Tensor> grads = loss_of(c, xs, w).gradient(xs);
  const double eps = dtype == DType::Float64 ? 1e-6 : 1e-2;
  const double tol = dtype == DType::Float64 ? 1e-5 : 3e-2;
  for (int i = 0; i < c.inputs; i++) {
    const std::vector<double> analytic = reference_values(grads[static_cast<size_t>(i)]);
    ASSERT_EQ(grads[static_cast<size_t>(i)].shape(), shape) << c.name;
    for (size_t k = 0; k < inputs[static_cast<size_t>(i)].size(); k++) {
      const auto at = [&](double delta) {
        std::vector<Tensor> moved = xs;
        std::vector<double> v = inputs[static_cast<size_t>(i)];
        v[k] += delta;
        moved[static_cast<size_t>(i)] = testing::tensor(v, shape, dtype);
        return reference_values(loss_of(c, moved, w))[0];
      };
      const double numeric = (at(eps) - at(-eps)) / (2 * eps);
      EXPECT_NEAR(analytic[k], numeric, tol * std::max(1.0, std::abs(numeric)))
          << c.name << " " << name(dtype) << " input " << i << " element " << k;
    }
  }
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all{
      {"neg", 1, [](auto& x) { return x[0].neg(); }},
      {"exp", 1, [](auto& x) { return x[0].exp(); }},
      {"exp2", 1, [](auto& x) { return x[0].exp2(); }},
      {"log", 1, [](auto& x) { return x[0].log(); }, 0.5, 3},
      {"log2", 1, [](auto& x) { return x[0].log2(); }, 0.5, 3},
      {"sqrt", 1, [](auto& x) { return x[0].sqrt(); }, 0.5, 3},
      {"rsqrt", 1, [](auto& x) { return x[0].rsqrt(); }, 0.5, 3},
      {"sin", 1, [](auto& x) { return x[0].sin(); }},
      {"cos", 1, [](auto& x) { return x[0].cos(); }},
      {"tan", 1, [](auto& x) { return x[0].tan(); }, -1, 1},
      {"relu", 1, [](auto& x) { return x[0].relu(); }},
      {"sigmoid", 1, [](auto& x) { return x[0].sigmoid(); }},
      {"tanh", 1, [](auto& x) { return x[0].tanh(); }},
      {"gelu", 1, [](auto& x) { return x[0].gelu(); }},
      {"silu", 1, [](auto& x) { return x[0].silu(); }},
      {"abs", 1, [](auto& x) { return x[0].abs(); }},
      {"reciprocal", 1, [](auto& x) { return x[0].reciprocal(); }, 0.5, 3},
      {"square", 1, [](auto& x) { return x[0].square(); }},
      {"pow_const", 1, [](auto& x) { return x[0].pow(ConstValue{2.5}); }, 0.5, 3},
      {"add", 2, [](auto& x) { return x[0].add(x[1]); }},
      {"sub", 2, [](auto& x) { return x[0].sub(x[1]); }},
      {"mul", 2, [](auto& x) { return x[0].mul(x[1]); }},
      {"div", 2, [](auto& x) { return x[0].div(x[1]); }, 0.5, 3},
      {"pow", 2, [](auto& x) { return x[0].pow(x[1]); }, 0.5, 2},
      {"maximum", 2, [](auto& x) { return x[0].maximum(x[1]); }},
      {"minimum", 2, [](auto& x) { return x[0].minimum(x[1]); }},
      {"where", 2, [](auto& x) { return x[0].gt(x[1]).where(x[0].mul(x[1]), x[1]); }},
      {"cast_float64", 1, [](auto& x) { return x[0].cast(DType::Float64).square(); }},
      {"sum_axis", 1, [](auto& x) { return x[0].sum(std::vector<int>{1}); }},
      {"sum_all", 1, [](auto& x) { return x[0].sum(); }},
      {"max_axis", 1, [](auto& x) { return x[0].max(std::vector<int>{2}); }},
      {"min_all", 1, [](auto& x) { return x[0].min(); }},
      {"mean", 1, [](auto& x) { return x[0].mean(std::vector<int>{0, 2}, true); }},
      {"var", 1, [](auto& x) { return x[0].var(std::vector<int>{1}); }},
      {"std", 1, [](auto& x) { return x[0].std(std::vector<int>{2}); }},
      {"prod", 1, [](auto& x) { return x[0].prod(std::vector<int>{1}); }, 0.5, 2},
      {"softmax", 1, [](auto& x) { return x[0].softmax(); }},
      {"log_softmax", 1, [](auto& x) { return x[0].log_softmax(1); }},
      {"logsumexp", 1, [](auto& x) { return x[0].logsumexp(std::vector<int>{2}); }},
      {"reshape", 1, [](auto& x) { return x[0].reshape({-1}).mul(x[0].reshape({-1})); }},
      {"permute", 1, [](auto& x) { return x[0].permute({2, 0, 1}).exp(); }},
      {"expand", 1, [](auto& x) { return x[0].unsqueeze(1).expand({-1, 3, -1, -1}).square(); }},
      {"pad", 1, [](auto& x) { return x[0].pad({{1, 2}, {0, 1}, {2, 0}}).square(); }},
      {"shrink", 1, [](auto& x) { return x[0].shrink({Range{1, 2}, std::nullopt, Range{0, 2}}).square(); }},
      {"flip", 1, [](auto& x) { return x[0].flip({0, 2}).mul(x[0]); }},
      {"slice_step", 1,
       [](auto& x) { return x[0].getitem({Slice{std::nullopt, std::nullopt, int64_t{-1}}, Slice{{}, {}, 2}}).exp(); }},
      {"transpose_reshape", 1, [](auto& x) { return x[0].transpose(0, 2).reshape({-1}).square(); }},
      {"cat", 2, [](auto& x) { return x[0].cat({x[1]}, 1).square(); }},
      {"repeat", 1, [](auto& x) { return x[0].repeat({2, 1, 2}).square(); }},
      {"matmul", 2, [](auto& x) { return x[0].matmul(x[1].transpose(1, 2)); }},
      // neural-net functions (core/tensor/activation.cpp, tensor_conv.cpp, tensor_resize.cpp, ...)
      {"leaky_relu", 1, [](auto& x) { return x[0].leaky_relu(0.1); }},
      {"elu", 1, [](auto& x) { return x[0].elu(0.7); }},
      {"celu", 1, [](auto& x) { return x[0].celu(1.3); }},
      {"selu", 1, [](auto& x) { return x[0].selu(); }},
      {"softplus", 1, [](auto& x) { return x[0].softplus(2.0); }},
      {"mish", 1, [](auto& x) { return x[0].mish(); }},
      {"hardswish", 1, [](auto& x) { return x[0].hardswish(); }},
      {"hardsigmoid", 1, [](auto& x) { return x[0].hardsigmoid(); }},
      {"hardtanh", 1, [](auto& x) { return x[0].hardtanh(-0.5, 0.5); }, 0.6, 2},
      {"relu6", 1, [](auto& x) { return x[0].relu6(); }, 0.1, 5},
      {"quick_gelu", 1, [](auto& x) { return x[0].quick_gelu(); }},
      {"swish", 1, [](auto& x) { return x[0].swish(); }},
      {"logsigmoid", 1, [](auto& x) { return x[0].logsigmoid(); }},
      {"softsign", 1, [](auto& x) { return x[0].softsign(); }, 0.1, 2},
      {"softmin", 1, [](auto& x) { return x[0].softmin(1); }},
      {"erf", 1, [](auto& x) { return x[0].erf(); }, 0.1, 2},
      {"log10", 1, [](auto& x) { return x[0].log10(); }, 0.5, 3},
      {"sinh", 1, [](auto& x) { return x[0].sinh(); }},
      {"cosh", 1, [](auto& x) { return x[0].cosh(); }},
      {"asin", 1, [](auto& x) { return x[0].asin(); }, 0.05, 0.9},
      {"acos", 1, [](auto& x) { return x[0].acos(); }, 0.05, 0.9},
      {"atan", 1, [](auto& x) { return x[0].atan(); }, 0.05, 2},
      {"logaddexp", 2, [](auto& x) { return x[0].logaddexp(x[1]); }},
      {"lerp", 3, [](auto& x) { return x[0].lerp(x[1], x[2]); }},
      {"layernorm", 1, [](auto& x) { return x[0].layernorm({-1}); }},
      {"batchnorm", 2,
       [](auto& x) {
         const Tensor mean = x[1].mean(std::vector<int>{0, 2});
         return x[0].batchnorm(std::nullopt, std::nullopt, mean, x[1].var(std::vector<int>{0, 2}).add(Tensor::scalar_like(mean, 1.0)).rsqrt());
       }},
      {"conv2d_padding", 2,
       [](auto& x) {
         const Tensor w = x[1].shrink({std::nullopt, Range{0, 2}, Range{0, 2}}).unsqueeze(0);
         return x[0].unsqueeze(0).conv2d(w, std::nullopt, 1, {1}, {1}, {1});
       }},
      {"conv2d_stride_dilation", 2,
       [](auto& x) {
         const Tensor w = x[1].shrink({std::nullopt, Range{0, 2}, Range{0, 2}}).unsqueeze(0);
         return x[0].unsqueeze(0).conv2d(w, std::nullopt, 1, {2, 1}, {2}, {1, 2});
       }},
      {"conv_transpose2d", 2,
       [](auto& x) {
         const Tensor w = x[1].shrink({std::nullopt, Range{0, 2}, Range{0, 2}}).unsqueeze(1);
         return x[0].unsqueeze(0).conv_transpose2d(w, std::nullopt, 1, {2}, {1}, {1});
       }},
      {"max_pool2d", 1, [](auto& x) { return x[0].max_pool2d({2, 2}, {1}, {1}, {1}, true); }},
      {"avg_pool2d", 1, [](auto& x) { return x[0].avg_pool2d({2, 2}, {}, {1}, {1}, true, false); }},
      {"interpolate_bilinear", 1,
       [](auto& x) { return x[0].interpolate({5, 3}, Tensor::Interpolation::Linear, false); }},
      {"interpolate_align_corners", 1,
       [](auto& x) { return x[0].interpolate({3, 5}, Tensor::Interpolation::Linear, true); }},
      {"scaled_dot_product_attention", 3,
       [](auto& x) { return x[0].scaled_dot_product_attention(x[1], x[2], std::nullopt, true); }},
      {"cross_entropy_smoothing", 1,
       [](auto& x) {
         const Tensor y = Tensor::arange(int64_t{0}, x[0].shape()[0], int64_t{1});  // a <= 4 <= b * c classes
         return x[0].flatten(1).cross_entropy(y, Tensor::Reduction::Mean, 0.1);
       }},
      {"sparse_categorical_crossentropy", 1,
       [](auto& x) {
         const int64_t a = x[0].shape()[0], b = x[0].shape()[1];
         const Tensor row = Tensor::arange(int64_t{0}, b, int64_t{1});
         const Tensor y = row.mod(Tensor::scalar_like(row, int64_t{2})).reshape({1, b}).expand({a, b});  // labels 0 and 1
         return x[0].sparse_categorical_crossentropy(y, 0, 0.2);
       }},
      {"binary_crossentropy_logits", 2,
       [](auto& x) { return x[0].binary_crossentropy_logits(x[1].sigmoid(), Tensor::Reduction::None); }},
      {"nll_loss", 1,
       [](auto& x) {
         const Tensor y = Tensor::zeros({x[0].shape()[0], x[0].shape()[2]}, DType::Int32);
         return x[0].log_softmax(1).nll_loss(y, std::nullopt, std::nullopt, Tensor::Reduction::Sum);
       }},
      // tensor functions (core/tensor/: layout, logic, index, scan, sort, einsum)
      {"stack", 2, [](auto& x) { return stack({x[0], x[1].exp()}, -1).square(); }},
      {"split", 1, [](auto& x) { return split(x[0], 1, 1)[1].mul(chunk(x[0], 2, 2)[0].sum(std::vector<int>{2}, true)); }},
      {"roll", 1, [](auto& x) { return roll(x[0], {1, -2}, std::vector<int>{0, 2}).mul(x[0]); }},
      {"tril_triu", 1, [](auto& x) { return tril(x[0]).square().add(triu(x[0], 1)); }},
      {"repeat_interleave", 1, [](auto& x) { return repeat_interleave(x[0], 2, 1).square(); }},
      {"unfold", 1, [](auto& x) { return unfold(x[0], 0, 2, 1).square(); }},
      {"pad_reflect", 1, [](auto& x) { return pad(x[0], {{1, 1}, {0, 1}, {1, 0}}, PadMode::Reflect).square(); }},
      {"pad_replicate", 1, [](auto& x) { return pad(x[0], {{0, 2}, {1, 0}, {0, 0}}, PadMode::Replicate).square(); }},
      {"pad_circular", 1, [](auto& x) { return pad(x[0], {{1, 0}, {0, 1}, {1, -1}}, PadMode::Circular).square(); }},
      {"clip", 1, [](auto& x) { return clip(x[0], Tensor::scalar_like(x[0], -1.0), Tensor::scalar_like(x[0], 1.0)).mul(x[0]); }},
      {"masked_fill", 1, [](auto& x) { return masked_fill(x[0].square(), x[0].gt(Tensor::scalar_like(x[0], 0.5)), Tensor::scalar_like(x[0], 0.0)); }},
      {"gather", 1,
       [](auto& x) {
         const Tensor idx = Tensor::arange(int64_t{0}, x[0].shape()[1], int64_t{1}, DType::Int32).flip({0}).reshape({1, -1, 1});
         return gather(x[0], 1, idx.expand({x[0].shape()[0], -1, 2})).square();
       }},
      {"scatter", 2,
       [](auto& x) {
         const Tensor idx = Tensor::zeros({x[0].shape()[0], 1, x[0].shape()[2]}, DType::Int32);
         return scatter(x[0], 1, idx, x[1].square()).mul(x[0]);
       }},
      {"fancy_index", 1,
       [](auto& x) {
         return getitem(x[0], {Slice{}, Slice{}}, {{1, Tensor::full({3}, int64_t{1}, DType::Int32).add(Tensor::arange(int64_t{-1}, int64_t{2}, int64_t{1}, DType::Int32))}}).square();
       }},
      {"cumsum", 1, [](auto& x) { return cumsum(x[0], 1).square(); }},
      {"cumprod", 1, [](auto& x) { return cumprod(x[0], -1); }, 0.5, 2},
      {"cummax", 1, [](auto& x) { return cummax(x[0], 2).first.mul(x[0]); }},
      {"sort", 1, [](auto& x) { return sort(x[0], 1, true).first.mul(Tensor::arange(int64_t{1}, x[0].shape()[2] + 1, int64_t{1}, x[0].dtype())); }},
      {"topk", 1, [](auto& x) { return topk(x[0], 2, 0).first.square(); }},
      {"einsum", 2, [](auto& x) { return einsum("abc,adc->bd", {x[0], x[1].exp()}); }},
  };
  return all;
}

class Gradient : public ::testing::TestWithParam<size_t> {};

TEST_P(Gradient, MatchesCentralDifferencesInFloat32AndFloat64) {
  const Case& c = cases()[GetParam()];
  for (uint32_t seed : {1u, 2u}) {
    check_case(c, DType::Float64, seed);
    check_case(c, DType::Float32, seed + 10);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryOp, Gradient, ::testing::Range<size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<size_t>& i) { return std::string(cases()[i.param].name); });

}  // namespace
}  // namespace tr

namespace tr {
namespace {

std::vector<double> device_values(const Tensor& t) { return testing::values(t.data()); }

TEST(Backward, FillsGradOfEveryFloatTensorInTheGraphAndAccumulates) {
  const Tensor w = testing::tensor({1, 2, 3}, {3});
  const Tensor x = testing::tensor({4, 5, 6}, {3});
  const Tensor unrelated = testing::tensor({1}, {1});
  const Tensor ints = testing::tensor({1, 1, 1}, {3}, DType::Int32);
  const Tensor loss = w.mul(x).add(ints).sum();
  loss.backward();
  ASSERT_TRUE(w.grad());
  ASSERT_TRUE(x.grad());
  EXPECT_FALSE(unrelated.grad());
  EXPECT_FALSE(ints.grad());
  EXPECT_EQ(device_values(*w.grad()), (std::vector<double>{4, 5, 6}));
  EXPECT_EQ(device_values(*x.grad()), (std::vector<double>{1, 2, 3}));
  const Tensor copy = w;  // a copy is the same tensor: it sees the gradient
  ASSERT_TRUE(copy.grad());
  loss.backward();
  EXPECT_EQ(device_values(*w.grad()), (std::vector<double>{8, 10, 12}));
}

TEST(Backward, GradientReturnsWithoutStoringAndZerosWhereUnreached) {
  const Tensor a = testing::tensor({1, 2}, {2});
  const Tensor b = testing::tensor({3, 4}, {2});
  const std::vector<Tensor> g = a.square().sum().gradient({a, b});
  EXPECT_EQ(device_values(g[0]), (std::vector<double>{2, 4}));
  EXPECT_EQ(device_values(g[1]), (std::vector<double>{0, 0}));
  EXPECT_FALSE(a.grad());
}

TEST(Backward, ErrorsSayWhatIsWrong) {
  const Tensor a = testing::tensor({1, 2}, {2});
  EXPECT_TRUE(testing::throws([&] { a.backward(); }, "shape", "backward needs a scalar"));
  const Tensor i = testing::tensor({1, 2}, {2}, DType::Int32);
  EXPECT_TRUE(testing::throws([&] { i.sum().backward(); }, "type", "only float tensors have gradients"));
}

TEST(Backward, DetachStopsTheGradient) {
  const Tensor a = testing::tensor({1, 2}, {2});
  const std::vector<Tensor> g = a.mul(a.detach()).sum().gradient({a});
  EXPECT_EQ(device_values(g[0]), (std::vector<double>{1, 2}));
}

TEST(Backward, AssignChangesEveryCopyAndCutsTheHistory) {
  Tensor w = testing::tensor({1, 2}, {2});
  w.realize();
  const Tensor held = w;
  w.assign(w.mul(Tensor::scalar_like(w, 3.0)));
  EXPECT_EQ(device_values(held), (std::vector<double>{3, 6}));
  EXPECT_TRUE(w.node()->srcs.empty());  // a leaf: the next step's gradient stops here
  const std::vector<Tensor> g = w.square().sum().gradient({w});
  EXPECT_EQ(device_values(g[0]), (std::vector<double>{6, 12}));
}

// An empty tensor's gradient is an empty tensor, as tinygrad 0.14 gives it: a reduce over an empty axis
// keeps its source in the graph, and no gradient reaches a tensor through an empty view of it.
TEST(Backward, AnEmptyTensorGetsAnEmptyGradient) {
  const Tensor x = Tensor::zeros({0, 3});
  x.sum().backward();
  ASSERT_TRUE(x.grad());
  EXPECT_EQ(x.grad()->shape(), (Shape{0, 3}));
  const Tensor y = Tensor::ones({2, 0});
  const Tensor z = Tensor::ones({0});
  const Tensor w = testing::tensor({1, 2, 3}, {3});
  y.mul(Tensor::scalar_like(y, 2.0)).sum().add(z.max()).add(w.sum()).backward();
  ASSERT_TRUE(y.grad() && z.grad() && w.grad());
  EXPECT_EQ(y.grad()->shape(), (Shape{2, 0}));
  EXPECT_EQ(z.grad()->shape(), (Shape{0}));
  EXPECT_EQ(device_values(*w.grad()), (std::vector<double>{1, 1, 1}));
  const std::vector<Tensor> g = w.shrink({Range{1, 1}}).sum().gradient({w});
  EXPECT_EQ(device_values(g[0]), (std::vector<double>{0, 0, 0}));
  const Tensor e = Tensor::ones({0, 3});
  EXPECT_EQ(e.mean().gradient({e})[0].shape(), (Shape{0, 3}));
}

TEST(Backward, GradientsOfARealizedLossStillReachItsLeaves) {
  const Tensor w = testing::tensor({1, 2}, {2});
  Tensor loss = w.exp().sum();
  loss.realize();
  const std::vector<Tensor> g = loss.gradient({w});
  const std::vector<double> got = device_values(g[0]);
  EXPECT_NEAR(got[0], std::exp(1.0), 1e-5);
  EXPECT_NEAR(got[1], std::exp(2.0), 1e-5);
}

}  // namespace
}  // namespace tr

namespace tr {
namespace {

TEST(Backward, AViewOfAConstantGetsAGradientOnceRealized) {
  // broadcasting b reads it through a new view of the constant, not through b's own view
  const Tensor x = testing::tensor({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor b = Tensor::zeros({3});
  EXPECT_TRUE(testing::throws([&] { x.add(b).sum().gradient({b}); }, "value", "realize it where it is made"));
  b.realize();
  const std::vector<Tensor> g = x.add(b).sum().gradient({b});
  EXPECT_EQ(testing::values(g[0].data()), (std::vector<double>{2, 2, 2}));
}

}  // namespace
}  // namespace tr
