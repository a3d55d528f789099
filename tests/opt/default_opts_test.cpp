// The invariant of the default opts (tests/default_opts_testing.h): apply_opt accepts every opt they
// choose, for every kernel, on every target the project knows. A recipe that apply_opt refuses is
// undone, so that the kernel still gets fewer opts, never a refused one; here none may be refused.
// The kernels of tests/programs are checked by their own suite (repl_programs_test).
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"
#include "core/render/render.h"
#include "tests/default_opts_testing.h"
#include "tests/kernel_testing.h"
#include "tests/random_program.h"

namespace tr {
namespace {

using testing::expect_default_opts_accepted;

Tensor input(const Shape& shape, DType t = DType::Float32) { return testing::realized_random(shape, 7).cast(t).realize(); }

TEST(DefaultOpts, TheirOptsAreAcceptedOnEveryTargetForTheCoursesKernels) {
  // a reduce over an axis of size 1 of a value computed in the kernel (CUDA once refused its UPCAST)
  expect_default_opts_accepted(Tensor::linspace(int64_t{-2}, int64_t{2}, 256).reshape({256, 1}).sum(std::vector<int>{1}), "linspace sum");
  const Tensor a = input({64, 96}), b = input({96, 32});
  expect_default_opts_accepted(a.matmul(b), "matmul");
  expect_default_opts_accepted(a.matmul(b).relu(), "matmul relu");
  expect_default_opts_accepted(input({64, 96}, DType::Float16).matmul(input({96, 32}, DType::Float16)), "half matmul");
  expect_default_opts_accepted(a.softmax(), "softmax");
  expect_default_opts_accepted(a.var(std::vector<int>{1}), "var");
  expect_default_opts_accepted(a.layernorm(), "layernorm");
  expect_default_opts_accepted(a.transpose().contiguous(), "transpose");
  expect_default_opts_accepted(a.sum(std::vector<int>{0}), "column sum");
  expect_default_opts_accepted(a.sum(std::vector<int>{1}), "row sum");
  expect_default_opts_accepted(a.sum(), "full sum");
  expect_default_opts_accepted(input({2, 3, 16, 16}).conv2d(input({8, 3, 3, 3})), "conv2d");
  const Tensor q = input({2, 4, 32, 16}), k = input({2, 4, 32, 16}), v = input({2, 4, 32, 16});
  expect_default_opts_accepted(q.scaled_dot_product_attention(k, v), "attention");
}

// The GEMM-class kernels of scripts/bench/cpu, at their sizes (zeros: only the kernels matter): on the
// AVX-512 target with an L2 of 1 MiB the 2048 ones walk panels of columns around blocks of the reduce,
// two BLOCKs that every target must accept or not be given.
TEST(DefaultOpts, TheirOptsAreAcceptedOnEveryTargetForGemmShapes) {
  const auto zeros = [](const Shape& s, DType t = DType::Float32) { return Tensor::zeros(s, t).contiguous().realize(); };
  const Tensor w = zeros({1024, 1024}), bias = zeros({1024});
  expect_default_opts_accepted(zeros({512, 1024}).matmul(w).add(bias).relu(), "linear 512x1024x1024");
  expect_default_opts_accepted(zeros({2048, 2048}).matmul(zeros({2048, 2048})), "matmul 2048");
  expect_default_opts_accepted(zeros({256, 2048}).matmul(zeros({2048, 2048})).add(zeros({2048})).relu(), "linear 256x2048x2048");
  expect_default_opts_accepted(zeros({100352, 576}).matmul(zeros({576, 64})), "tall-skinny");
  expect_default_opts_accepted(zeros({32, 256, 256}).matmul(zeros({32, 256, 256})), "batched matmul");
  expect_default_opts_accepted(zeros({1024, 1024}, DType::BFloat16).matmul(zeros({1024, 1024}, DType::BFloat16)), "bfloat16 matmul");
  expect_default_opts_accepted(zeros({2048, 2048}, DType::Float16).matmul(zeros({2048, 2048}, DType::Float16)), "half matmul 2048");
  const Kernel mm = testing::only_kernel(zeros({2048, 2048}).matmul(zeros({2048, 2048})));
  int blocks = 0;
  for (const Opt& o : default_opts(mm, cpu_target(Isa::Avx512, 2, {.l1d = 32 << 10, .l2 = 1 << 20})).opts) blocks += o.op == OptOp::Block;
  EXPECT_EQ(blocks, 2);
}

// The kernel of the first line of `print(linspace(-2, 2, 256).reshape(256, 1).sum(axis=1))` renders for
// every backend with the default opts of its target (its device's where it opens here, else the
// backend's nominal one): apply_opt once refused them on every GPU, and linspace computed in float64,
// which Metal and WGSL lack, where tinygrad 0.14 computes in the default float.
TEST(DefaultOpts, TheLinspaceSumRendersForEveryBackend) {
  const Kernel k = testing::only_kernel(Tensor::linspace(int64_t{-2}, int64_t{2}, 256).reshape({256, 1}).sum(std::vector<int>{1}));
  for (const std::string& b : backends()) {
    const Target t = backend_info(b).gpu ? backend_info(b).nominal : cpu_target(Isa::Avx512, 2, {});
    const LoweredKernel l = lower_kernel(default_opts(k, t), t, [&](const UOpProgram& p) { return render(b, p); }, "r_256");
    EXPECT_NE(l.source.find("r_256"), std::string::npos) << b;
  }
  // tinygrad's values: start + i * step, each in float32
  const float step = static_cast<float>(4.0 / 255);
  const std::vector<double> got = testing::values(Tensor::linspace(int64_t{-2}, int64_t{2}, 256));
  for (const int i : {1, 100, 254}) EXPECT_EQ(static_cast<float>(got[static_cast<size_t>(i)]), -2.0f + static_cast<float>(i) * step) << i;
}

// The source's budget (kMaxSourceOps): a sum after 200 doublings, a body of 200 ops, once got UNROLL(0, 16)
// and UNROLL(0, 4), 64 copies in 12800 lines that gcc took 19 s to compile cold; on every target its
// source now holds at most the budget, a recipe past it being undone and said so. A matmul's body is
// small, and its register tile is all there.
TEST(DefaultOpts, ALongChainIsNotCopiedPastTheSourcesBudget) {
  Tensor x = input({8, 8});
  for (int i = 0; i < 200; i++) x = x.add(x);
  const Kernel chain = testing::only_kernel(x.sum());
  EXPECT_EQ(body_ops(chain), 200);
  bool trimmed = false;
  for (const auto& [name, target] : testing::default_opts_targets()) {
    const OptPlan plan = plan_default_opts(chain, target);
    EXPECT_LE(body_ops(chain) * body_copies(plan.kernel, target), kMaxSourceOps) << name;
    trimmed = trimmed || !plan.too_large.empty();
  }
  EXPECT_TRUE(trimmed);
  const Kernel mm = testing::only_kernel(input({64, 64}).matmul(input({64, 64})));
  const Target avx512 = cpu_target(Isa::Avx512, 2, {});
  EXPECT_TRUE(plan_default_opts(mm, avx512).too_large.empty());
  EXPECT_GE(body_copies(default_opts(mm, avx512), avx512), 8);
}

// Random programs: shapes, dtypes, op chains, movement ops and reduces (tests/random_program.h).
TEST(DefaultOpts, TheirOptsAreAcceptedOnEveryTargetForRandomPrograms) {
  constexpr int kPrograms = 5000;
  int built = 0, kernels = 0;
  for (int seed = 0; seed < kPrograms; seed++) {
    testing::Generator gen(seed + 100000, "CPU");
    std::optional<Tensor> x;
    try {
      x = gen.build();
    } catch (const Error&) {
      continue;  // a chain the engine refuses, as tinygrad does (floor division of bools)
    }
    built++;
    kernels += expect_default_opts_accepted(*x, "random program " + std::to_string(seed) + ":\n" + gen.text());
  }
  EXPECT_GT(built, kPrograms * 9 / 10);
  EXPECT_GT(kernels, built);
}

}  // namespace
}  // namespace tr
