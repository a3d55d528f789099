// Graphs whose paths double at every step cost their node count: a chain of 60 doublings and a stack
// of 60 residual layers schedule, lower and run as one kernel each, and every IR shares its nodes.
// CTest gives this suite a timeout that the path-count behaviour (hours for 60 doublings) cannot meet.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <cmath>

#include "core/kernel/ast.h"
#include "core/realize/realize.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

constexpr int kLayers = 60;

Tensor doublings(int n) {
  Tensor y = Tensor::ones({8, 8});
  for (int i = 0; i < n; i++) y = y.add(y);
  return y;
}

Tensor residual_stack(int n) {
  Tensor h = Tensor::arange(int64_t{0}, int64_t{64}).reshape({8, 8}).cast(DType::Float32).div(Tensor::full({}, 64.0));
  for (int i = 0; i < n; i++) h = h.add(h.mul(Tensor::full({}, 0.5)).relu());
  return h;
}

int nodes(const AstRef& ast) {
  int n = 0;
  walk(ast, [&](const AstNode&) { n++; });
  return n;
}

// The kernel that computes x, as the scheduler builds it.
AstRef kernel_of(const Tensor& x) {
  const std::vector<ScheduleItem> items = create_schedule({base_of(x.node())});
  EXPECT_EQ(items.back().kind, ScheduleItem::Kind::Kernel);
  return items.back().ast;
}

TEST(SharedGraph, DoublingsAreOneNodePerLine) {
  const Tensor y = doublings(kLayers);
  const AstRef ast = kernel_of(y);
  // STORE, 60 ADDs and the one LOAD that every ADD reads twice
  EXPECT_EQ(nodes(ast), kLayers + 2);
  const std::string tree = print_ast(ast);
  EXPECT_EQ(std::count(tree.begin(), tree.end(), '\n'), 2 * kLayers + 2) << tree.substr(0, 400);
  EXPECT_NE(tree.find("↑ 2"), std::string::npos) << "a shared node refers to the row where it was drawn";
  const std::vector<double> v = testing::values(y.data());
  ASSERT_EQ(v.size(), 64u);
  EXPECT_EQ(v[0], std::ldexp(1.0, kLayers));
}

TEST(SharedGraph, ResidualStackRunsAsOneKernel) {
  const Tensor h = residual_stack(kLayers);
  const std::vector<double> v = testing::values(h.data());
  int kernels = 0;
  for (const RunRecord& r : last_realization().runs) kernels += !r.is_copy;
  EXPECT_EQ(kernels, 1);
  for (int i = 0; i < 64; i++) {
    const double want = i / 64.0 * std::pow(1.5, kLayers);
    EXPECT_NEAR(v[i], want, 1e-4 * want + 1e-6) << "element " << i;
  }
}

// The lazy graph is interned like the AST: the same expression built twice is one node, so the
// residual stack built twice is one graph, and its kernel computes it once for both.
TEST(SharedGraph, IdenticalExpressionsAreOneLazyNode) {
  const Tensor x = Tensor::rand({4, 4}, 5);
  EXPECT_EQ(x.mul(Tensor::full({}, 2.0)).node(), x.mul(Tensor::full({}, 2.0)).node());
  EXPECT_EQ(residual_stack(kLayers).node(), residual_stack(kLayers).node());
  EXPECT_NE(x.mul(Tensor::full({}, 2.0)).node(), x.mul(Tensor::full({}, -2.0)).node());
  // constants compare by their bits: -0.0 is its own node, though -0.0 == 0.0
  EXPECT_NE(x.mul(Tensor::full({}, 0.0)).node(), x.mul(Tensor::full({}, -0.0)).node());
  // data of its own is never merged: two literals with the same values are two nodes
  EXPECT_NE(testing::tensor({1.0, 2.0}, {2}).node(), testing::tensor({1.0, 2.0}, {2}).node());
}

TEST(SharedGraph, ARealizedNodeIsNotReusedForANewExpression) {
  const Tensor x = Tensor::rand({4}, 6);
  Tensor a = x.add(Tensor::full({}, 1.0));
  a.realize();
  const Tensor b = x.add(Tensor::full({}, 1.0));
  EXPECT_NE(a.node(), b.node());
  EXPECT_FALSE(b.node()->buffer);
  EXPECT_EQ(testing::values(a.data()), testing::values(b.data()));
}

TEST(SharedGraph, StaysSmall) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer's shadow memory and quarantine count in the resident size";
#else
  testing::values(doublings(kLayers).data());
  testing::values(residual_stack(kLayers).data());
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  EXPECT_LT(usage.ru_maxrss, 200 * 1024) << "peak resident size in KiB";
#endif
}

}  // namespace
}  // namespace tr
