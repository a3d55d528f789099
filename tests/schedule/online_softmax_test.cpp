// The online softmax (README "Attention: the online softmax"): a max -> exp -> sum -> matmul chain over
// one axis is one kernel that walks each row once, with a running maximum that rescales its sums; it
// fires only where that algebra holds, and its values are the unfused reference's, nan and inf included.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/base/context.h"
#include "core/codegen/codegen.h"
#include "core/kernel/kernel.h"
#include "core/opt/apply_opt.h"
#include "core/opt/heuristic.h"
#include "core/render/render.h"
#include "core/runtime/device.h"
#include "core/schedule/schedule.h"
#include "tests/kernel_testing.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

// The fusion is a setting, off by default (core/base/context.h); each test here turns it on.
class OnlineSoftmax : public ::testing::Test {
 protected:
  void SetUp() override { settings().online_softmax = true; }
  void TearDown() override { settings().online_softmax = false; }
};

const std::vector<std::string> kHostDevices{"CPU", "LLVM", "OPENCL"};
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// the project's VM, and a GPU with workgroups and local memory (the online kernel uses neither)
const Target kCpu = cpu_target(Isa::Avx512, 2, {});
const Target kGpu{.gpu = true, .local_memory = 48 << 10, .cores = 132, .max_local = 256, .vector_width = 4,
                  .warp_size = 32};

int count(const UOpProgram& p, UOpKind kind, RangeKind range = RangeKind::Reduce) {
  int n = 0;
  for (const UOp& u : p.uops) n += u.kind == kind && (kind != UOpKind::Range || u.range == range);
  return n;
}

// softmax(s) @ v written out by hand, as a user would.
Tensor by_hand(const Tensor& s, const Tensor& v) {
  const Tensor e = s.sub(s.max(std::vector<int>{-1}, true)).exp();
  return e.div(e.sum(std::vector<int>{-1}, true)).matmul(v);
}

TEST_F(OnlineSoftmax, SoftmaxThenMatmulIsOneKernelThatWalksEachRowOnce) {
  const Tensor s = realized_random({6, 10}, 1), v = realized_random({10, 5}, 2);
  for (const Tensor& y : {s.softmax().matmul(v), by_hand(s, v)}) {
    const Kernel k = only_kernel(y);
    EXPECT_TRUE(k.online_softmax);
    EXPECT_EQ(k.row_passes, 1);
    for (const Target& target : {kCpu, kGpu}) {
      const UOpProgram p = codegen(k, target, "attention");
      EXPECT_EQ(count(p, UOpKind::Range), 1) << "one walk of the keys";
      EXPECT_EQ(count(p, UOpKind::DefineAcc), 3) << "the running maximum, the sum of exps, the weighted sum";
    }
  }
}

// The maximum's new value is assigned after the sums have read its old one to rescale themselves; the
// program shows the rescaling: exp2 of the old maximum minus the new one.
TEST_F(OnlineSoftmax, TheSumsReadTheOldMaximumBeforeItsAssign) {
  const Kernel k = only_kernel(realized_random({4, 8}, 3).softmax().matmul(realized_random({8, 3}, 4)));
  const UOpProgram p = codegen(k, kCpu, "attention");
  std::vector<int> assigns;
  for (size_t i = 0; i < p.uops.size(); i++)
    if (p.uops[i].kind == UOpKind::Assign) assigns.push_back(static_cast<int>(i));
  ASSERT_EQ(assigns.size(), 3u);
  const int max_acc = p.uops[static_cast<size_t>(assigns.back())].srcs[0];
  EXPECT_EQ(p.uops[static_cast<size_t>(p.uops[static_cast<size_t>(assigns.back())].srcs[1])].alu, Op::MaxNan)
      << "the maximum is assigned last";
  int reads = 0;
  for (size_t i = 0; i < static_cast<size_t>(assigns.back()); i++)
    for (int s : p.uops[i].srcs) reads += s == max_acc && p.uops[i].kind == UOpKind::Alu;
  EXPECT_GE(reads, 2) << "the old maximum is read before it is assigned (to rescale, and as max(old, x))";
  int exp2s = 0;
  for (const UOp& u : p.uops) exp2s += u.kind == UOpKind::Alu && u.alu == Op::Exp2;
  EXPECT_EQ(exp2s, 2) << "the rescaling factor and the step's exp";
}

TEST_F(OnlineSoftmax, ValuesMatchTheReferenceOnEveryHostDeviceWithDefaultOptsAndNone) {
  for (const std::string& device : kHostDevices) {
    if (!device_status(device).empty()) continue;
    for (const Opts opts : {Opts::Default, Opts::Noopt}) {
      const ScopedOpts scoped(opts);
      const Tensor s = realized_random({9, 33}, 5, device), v = realized_random({33, 7}, 6, device);
      const Tensor y = s.softmax().matmul(v);
      EXPECT_EQ(count_kernels({y}), 1) << device;
      EXPECT_TRUE(matches_reference(y)) << device;
      EXPECT_TRUE(matches_reference(by_hand(s.mul(Tensor::full({1}, 4.0, DType::Float32, device)), v))) << device;
    }
  }
}

// scaled_dot_product_attention is one kernel: its scores (a sum over the head dim for each key) are a
// step reduce, walked inside each step of the keys, with or without a mask, causal or not.
TEST_F(OnlineSoftmax, ScaledDotProductAttentionIsOneKernelWithAndWithoutAMask) {
  for (const std::string& device : kHostDevices) {
    if (!device_status(device).empty()) continue;
    for (const Opts opts : {Opts::Default, Opts::Noopt}) {
      const ScopedOpts scoped(opts);
      const Tensor q = realized_random({2, 5, 8}, 7, device), k = realized_random({2, 6, 8}, 8, device),
                   v = realized_random({2, 6, 4}, 9, device);
      Tensor mask = realized_random({5, 6}, 10, device).lt(Tensor::full({1}, 1.0, DType::Float32, device));
      mask.realize();
      for (const Tensor& y : {q.scaled_dot_product_attention(k, v), q.scaled_dot_product_attention(k, v, mask),
                              q.scaled_dot_product_attention(k, v, std::nullopt, true)}) {
        EXPECT_EQ(count_kernels({y}), 1) << device;
        EXPECT_TRUE(only_kernel(y).online_softmax) << device;
        EXPECT_TRUE(matches_reference(y)) << device;
      }
    }
  }
}

// The scores' loop over the head dim is inside the loop over the keys, its accumulator started anew
// at each key; every backend renders it.
TEST_F(OnlineSoftmax, TheScoresAreALoopInsideEachStepOfTheKeys) {
  const Tensor q = realized_random({4, 8}, 19), k = realized_random({6, 8}, 20), v = realized_random({6, 3}, 21);
  const Kernel kernel = only_kernel(q.scaled_dot_product_attention(k, v, std::nullopt, true));
  ASSERT_TRUE(kernel.online_softmax);
  EXPECT_EQ(kernel.full_shape, (Shape{4, 3, 6})) << "the head dim is the scores' own, not a dim of the kernel";
  for (const Target& target : {kCpu, kGpu}) {
    const UOpProgram p = codegen(kernel, target, "attention");
    int open = 0, deepest = 0, accs_inside = 0;
    for (const UOp& u : p.uops) {
      if (u.kind == UOpKind::Range && u.range == RangeKind::Reduce) deepest = std::max(deepest, ++open);
      if (u.kind == UOpKind::EndRange && p.uops[static_cast<size_t>(u.srcs[0])].range == RangeKind::Reduce) open--;
      accs_inside += u.kind == UOpKind::DefineAcc && open == 1;
    }
    EXPECT_EQ(count(p, UOpKind::Range), 2) << "the keys, and the head dim inside them";
    EXPECT_EQ(deepest, 2);
    EXPECT_EQ(accs_inside, 1) << "the score's accumulator starts at each key";
    int exp2s = 0, maxes = 0;
    for (const UOp& u : p.uops) {
      exp2s += u.kind == UOpKind::Alu && u.alu == Op::Exp2;
      maxes += u.kind == UOpKind::Alu && u.alu == Op::MaxNan;
    }
    EXPECT_EQ(exp2s, 2) << "each step's score, maximum and exps computed once";
    EXPECT_EQ(maxes, 1);
    for (const std::string& backend : target.gpu ? backends() : std::vector<std::string>{"c", "llvm"})
      EXPECT_NE(render(backend, p).find("attention"), std::string::npos) << backend;
  }
}

// Any score the user writes: here the negative L1 distance between query and key, a sum over the
// head dim of |q - k| for each key, scaled before the softmax.
TEST_F(OnlineSoftmax, OtherScoreFunctionsFuseTheSameWay) {
  const Tensor q = realized_random({5, 8}, 25), k = realized_random({7, 8}, 26), v = realized_random({7, 3}, 27);
  const Tensor scores = q.reshape({5, 1, 8}).sub(k.reshape({1, 7, 8})).abs().sum(std::vector<int>{-1}).neg();
  const Tensor y = scores.mul(Tensor::full({1}, 0.5, DType::Float32)).softmax().matmul(v);
  EXPECT_EQ(count_kernels({y}), 1);
  EXPECT_TRUE(only_kernel(y).online_softmax);
  EXPECT_TRUE(matches_reference(y));
}

// A query whose keys are all masked is nan, as unfused; the others keep their values.
TEST_F(OnlineSoftmax, AFullyMaskedQueryIsNanAsUnfused) {
  const Tensor q = realized_random({3, 4}, 22), k = realized_random({5, 4}, 23), v = realized_random({5, 2}, 24);
  Tensor mask = tensor({1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, {3, 5}, DType::Bool);
  mask.realize();
  const Tensor y = q.scaled_dot_product_attention(k, v, mask);
  EXPECT_EQ(count_kernels({y}), 1);
  EXPECT_TRUE(matches_reference(y));
  const std::vector<double> got = values(y);
  EXPECT_TRUE(std::isfinite(got[0]) && std::isfinite(got[1]) && std::isfinite(got[4]) && std::isfinite(got[5]));
  EXPECT_TRUE(std::isnan(got[2]) && std::isnan(got[3]));
}

// Rows whose scores are all -inf (a fully masked query) are nan, as unfused; rows masked only at the
// start or the end keep their values; an inf or a nan score makes its row nan, as unfused.
TEST_F(OnlineSoftmax, MaskedInfiniteAndNanRowsMatchTheUnfusedValues) {
  const std::vector<double> scores{
      -kInf, -kInf, -kInf, -kInf,  // fully masked: nan
      -kInf, -kInf, 1.0,   2.0,    // masked at the start
      3.0,   -kInf, -kInf, -kInf,  // masked at the end
      -900., -1000, -950., -kInf,  // very negative: the rescale from -inf must not overflow
      kInf,  1.0,   2.0,   3.0,    // +inf: nan
      1.0,   kNan,  2.0,   3.0,    // nan: nan
      0.5,   0.25,  -0.5,  1.5};
  for (const std::string& device : kHostDevices) {
    if (!device_status(device).empty()) continue;
    Tensor s = tensor(scores, {7, 4}).to(device);
    s.realize();
    const Tensor v = realized_random({4, 3}, 11, device);
    const Tensor y = s.softmax().matmul(v);
    EXPECT_TRUE(only_kernel(y).online_softmax) << device;
    EXPECT_TRUE(matches_reference(y)) << device;
    const std::vector<double> got = values(y);
    for (size_t c = 0; c < 3; c++) {
      EXPECT_TRUE(std::isnan(got[c])) << device << " a fully masked row is nan";
      for (const size_t finite_row : {1, 2, 3, 6}) EXPECT_TRUE(std::isfinite(got[3 * finite_row + c])) << device;
      EXPECT_TRUE(std::isnan(got[12 + c])) << device << " an inf score";
      EXPECT_TRUE(std::isnan(got[15 + c])) << device << " a nan score";
    }
  }
}

// Chains where the algebra does not hold keep their reduces apart, and still compute the same values.
TEST_F(OnlineSoftmax, DoesNotFireWhereTheAlgebraDoesNotHold) {
  const Tensor s = realized_random({6, 10}, 12), v = realized_random({10, 5}, 13), w = realized_random({6, 5}, 14);
  const auto shifted = [&](const Tensor& by) {
    const Tensor e = s.sub(by).exp();
    return e.div(e.sum(std::vector<int>{-1}, true));
  };
  const std::vector<std::pair<std::string, Tensor>> cases{
      {"a sum where the max should be", shifted(s.sum(std::vector<int>{-1}, true)).matmul(v)},
      {"a max over the other axis", shifted(s.max(std::vector<int>{0}, true)).matmul(v)},
      {"the max of other values", shifted(w.max(std::vector<int>{-1}, true)).matmul(v)},
      {"exp of max - x (a negative scale)", s.max(std::vector<int>{-1}, true).sub(s).exp().matmul(v)},
      {"a square of the difference", s.sub(s.max(std::vector<int>{-1}, true)).square().matmul(v)},
      {"softmax over the rows, matmul over the columns", s.softmax(0).matmul(v)},
      {"scores q @ k^T with a softmax over the queries", s.matmul(v).matmul(v.transpose(0, 1)).softmax(0).matmul(v)},
  };
  for (const auto& [what, y] : cases) {
    for (const ScheduleItem& item : create_schedule({base_of(y.node())}))
      EXPECT_FALSE(Kernel::from_ast(item.ast).online_softmax) << what;
    EXPECT_TRUE(matches_reference(y)) << what;
  }
  // a plain softmax keeps its three walks: rescaling gains it nothing
  EXPECT_FALSE(only_kernel(s.softmax()).online_softmax);
  EXPECT_EQ(only_kernel(s.softmax()).row_passes, 3);
}

TEST_F(OnlineSoftmax, OnlyThreadAndLocalOfAnOutputDimApply) {
  const Kernel k = only_kernel(realized_random({16, 64}, 15).softmax().matmul(realized_random({64, 8}, 16)));
  ASSERT_TRUE(k.online_softmax);
  ASSERT_EQ(k.dims.size(), 3u);
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Unroll, 2, 4}, kCpu); }, "opt", "this kernel is an online softmax"));
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Upcast, 1, 4}, kCpu); }, "opt", "only THREAD and LOCAL of an output dim"));
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Group, 2, 16}, kGpu); }, "opt", "online softmax"));
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Thread, 2, 2}, kCpu); }, "opt", "online softmax"));
  EXPECT_NO_THROW(apply_opt(k, {OptOp::Thread, 0, 4}, kCpu));
  EXPECT_NO_THROW(apply_opt(k, {OptOp::Local, 1, 8}, kGpu));
  EXPECT_TRUE(default_opts(k, kCpu).opts.empty());
  EXPECT_TRUE(default_opts(k, kGpu).opts.empty());
}

TEST_F(OnlineSoftmax, EveryBackendRendersTheKernel) {
  const Kernel k = only_kernel(realized_random({4, 8}, 17).softmax().matmul(realized_random({8, 3}, 18)));
  const UOpProgram gpu = codegen(k, kGpu, "attention");
  for (const std::string& backend : backends()) EXPECT_NE(render(backend, gpu).find("attention"), std::string::npos) << backend;
  const UOpProgram cpu = codegen(k, kCpu, "attention");
  for (const std::string backend : {"c", "llvm"}) EXPECT_NE(render(backend, cpu).find("attention"), std::string::npos);
}

}  // namespace
}  // namespace tr

namespace tr {
namespace {

TEST(OnlineSoftmaxOff, AttentionKeepsTinygradsKernelsByDefault) {
  ASSERT_FALSE(settings().online_softmax);
  const Tensor s = testing::realized_random({8, 16}, 1), v = testing::realized_random({16, 4}, 2);
  EXPECT_EQ(create_schedule({base_of(s.softmax(1).matmul(v).node())}).size(), 3u);
}

}  // namespace
}  // namespace tr
