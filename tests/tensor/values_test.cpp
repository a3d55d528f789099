// Values at the edges and at scale: empty tensors, non-finite pow, std, long sums, tensors too large
// for 32-bit indices, the advancing generator, and what kernels report (bytes, GPU tabs of CPU kernels).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/runtime/device.h"
#include "core/tensor/random.h"
#include "core/realize/realize.h"
#include "core/render/render.h"
#include "tests/tensor_testing.h"
#include "viz/backend_lowering.h"

namespace tr {
namespace {

using testing::matches_reference;
using testing::Opts;
using testing::ScopedOpts;
using testing::tensor;
using testing::throws;
using testing::values;

constexpr double kInf = std::numeric_limits<double>::infinity();

int kernels_run() { return static_cast<int>(history().totals().kernels); }

// t's values are want's exactly (nan where want has nan), and the reference evaluator's.
void expect_exactly(const Tensor& t, const std::vector<double>& want, const std::string& where) {
  const std::vector<double> got = values(t);
  ASSERT_EQ(got.size(), want.size()) << where;
  for (size_t i = 0; i < got.size(); i++)
    EXPECT_TRUE(got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i])))
        << where << " [" << i << "] " << got[i] << " want " << want[i];
  EXPECT_TRUE(matches_reference(t)) << where;
}

class Empty : public ::testing::TestWithParam<Opts> {};

// Each of these has no elements: it realizes with no kernel and agrees with the reference evaluator.
TEST_P(Empty, NoKernelRunsForAnEmptyOutput) {
  const ScopedOpts opts(GetParam());
  const Tensor x = tensor({1.0, 2.0});
  const std::vector<std::pair<Tensor, Shape>> cases{
      {Tensor::zeros({0}), {0}},
      {Tensor::arange(int64_t{0}, int64_t{0}), {0}},
      {Tensor::eye(0), {0, 0}},
      {Tensor::linspace(5.0, 10.0, 0), {0}},
      {Tensor::zeros({4, 0}).sum(std::vector<int>{0}), {0}},
      {Tensor::ones({0, 8}).matmul(Tensor::ones({8, 8})), {0, 8}},
      {Tensor::zeros({2, 0}).cat({Tensor::zeros({2, 0})}, 0), {4, 0}},
      {x.shrink({Range{2, 2}}).mul(Tensor::scalar_like(x, 2.0)), {0}},
  };
  for (const auto& [t, shape] : cases) {
    const int before = kernels_run();
    EXPECT_EQ(t.shape(), shape);
    EXPECT_TRUE(values(t).empty());
    EXPECT_EQ(kernels_run(), before) << "a kernel ran for shape " << shape_str(shape);
    EXPECT_TRUE(matches_reference(t));
  }
}

// A reduce over an empty axis to a non-empty output is the reduce's identity, as in tinygrad.
TEST_P(Empty, AReduceOverAnEmptyAxisIsItsIdentity) {
  const ScopedOpts opts(GetParam());
  const Tensor z = Tensor::zeros({0, 4});
  EXPECT_EQ(values(z.sum(std::vector<int>{0})), std::vector<double>(4, 0.0));
  EXPECT_EQ(values(z.max(std::vector<int>{0})), std::vector<double>(4, -kInf));
  EXPECT_EQ(values(z.prod(std::vector<int>{0})), std::vector<double>(4, 1.0));
  EXPECT_EQ(values(Tensor::ones({4, 0}).matmul(Tensor::ones({0, 3}))), std::vector<double>(12, 0.0));
  // a view that pads an empty tensor reads only its padding
  EXPECT_EQ(values(Tensor::zeros({0}).pad({Range{1, 2}}, 5.0)), std::vector<double>(3, 5.0));
}

INSTANTIATE_TEST_SUITE_P(Values, Empty, testing::both_opts(), testing::opts_name);

// pow as tinygrad 0.14 computes it where the base or exponent is not finite (its values, taken from
// tinygrad on its CPU device), on every device that opens, each equal to the reference evaluator.
TEST(NonFinitePow, FollowsTinygradOnEveryDevice) {
  const double nan = std::nan("");
  for (const char* dev : {"CPU", "LLVM", "OPENCL"}) {
    if (!device_status(dev).empty()) continue;
    const Tensor x = tensor({kInf, -kInf, nan}).to(dev);
    const Tensor inf = tensor({kInf, -kInf}).to(dev);
    const auto check = [&](const Tensor& t, const std::vector<double>& want) { expect_exactly(t, want, dev); };
    check(x.pow(ConstValue{0.0}), {1, 1, 1});
    check(x.pow(Tensor::scalar_like(x, 0.0)), {1, 1, 1});
    check(x.rpow(ConstValue{1.0}), {1, 1, 1});                                // a constant 1 is 1
    check(Tensor::scalar_like(x, 1.0).expand(x.shape()).pow(x), {nan, nan, nan});  // exp2(inf * 0)
    check(x.pow(ConstValue{0.3}), {kInf, kInf, nan});
    check(x.pow(Tensor::scalar_like(x, 0.3)), {kInf, kInf, nan});
    check(x.pow(ConstValue{-0.3}), {0, 0, nan});
    check(x.pow(ConstValue{3.0}), {kInf, -kInf, nan});
    check(tensor({-kInf}).to(dev).pow(tensor({3.0}).to(dev)), {-kInf});
    check(tensor({-1.0, -1.0}).to(dev).pow(inf), {nan, nan});
    check(tensor({0.0, -0.0}).to(dev).pow(ConstValue{-1.0}), {kInf, -kInf});
    check(tensor({0.0, -0.0}).to(dev).pow(tensor({-1.0, -1.0}).to(dev)), {kInf, kInf});
    check(tensor({-2.0}).to(dev).pow(ConstValue{1e10}), {kInf});  // an even power, by squares
    check(tensor({-2.0}).to(dev).pow(tensor({1e10}).to(dev)), {nan});  // not an int32: not an integer
    check(tensor({-8.0}).to(dev).pow(ConstValue{1.0 / 3}), {nan});
    EXPECT_NEAR(values(tensor({2.0}).to(dev).pow(ConstValue{1.0 / 3}))[0], std::cbrt(2.0), 1e-6) << dev;
  }
}

// A nan anywhere in a max or min reduce wins, as numpy's does and tinygrad's max of [nan, 1.] does: in a
// short reduce the upcast unrolls and a long one with accumulators in vector lanes, on every device
// that opens, with and without opts, each equal to the reference evaluator. Element-wise maximum stays
// tinygrad's a < b ? b : a, which skips a nan b (so relu(nan) is 0).
TEST(NanInMaxAndMin, WinsOnEveryDevice) {
  const double nan = std::nan("");
  for (const Opts o : {Opts::Noopt, Opts::Default}) {
    const ScopedOpts opts(o);
    for (const char* dev : {"CPU", "LLVM", "OPENCL"}) {
      if (!device_status(dev).empty()) continue;
      const auto same = [&](const Tensor& t, const std::vector<double>& want) { expect_exactly(t, want, dev); };
      same(tensor({nan, 1.0}).to(dev).max(), {nan});
      same(tensor({1.0, nan}).to(dev).max(), {nan});
      same(tensor({nan, nan}).to(dev).max(), {nan});
      same(tensor({1.0, nan, 2.0}).to(dev).min(), {nan});
      std::vector<double> rows(64 * 64, 1.0);
      rows[31 * 64 + 16] = nan;
      const Tensor m = tensor(rows, {64, 64}).to(dev);
      same(m.max(), {nan});
      same(m.max(std::vector<int>{1}).shrink({Range{30, 33}}), {1.0, nan, 1.0});
      same(m.min(std::vector<int>{0}).shrink({Range{15, 18}}), {1.0, nan, 1.0});
      same(tensor({1.0, nan}).to(dev).maximum(tensor({nan, 1.0}).to(dev)), {1.0, nan});
    }
  }
}

// Each + and * rounds (no fused multiply-add): x - mean is exact here, so std is exactly 1.
TEST(Std, RowsOfOneTwoThreeAreExactlyOne) {
  const Tensor m = tensor({1, 2, 3, 4, 5, 6}, {2, 3});
  for (const Opts o : {Opts::Noopt, Opts::Default}) {
    const ScopedOpts opts(o);
    EXPECT_EQ(values(m.std(std::vector<int>{1})), (std::vector<double>{1, 1}));
    EXPECT_EQ(values(m.var(std::vector<int>{1})), (std::vector<double>{1, 1}));
  }
}

// A float32 sum in one accumulator stops at 2^24; in pieces it keeps growing.
TEST(LongSums, KeepGrowingPast2To24) {
  for (const Opts o : {Opts::Noopt, Opts::Default}) {
    const ScopedOpts opts(o);
    EXPECT_EQ(testing::scalar(Tensor::ones({4096, 8192}).sum()), 33554432.0);
    EXPECT_EQ(values(Tensor::ones({1, 33554432}).sum(std::vector<int>{1})), std::vector<double>{33554432.0});
    // a length no part count divides is padded with the identity and then cut
    const std::vector<double> odd = values(Tensor::ones({1, 16777259}).sum(std::vector<int>{1}));
    ASSERT_EQ(odd.size(), 1u);
    EXPECT_NEAR(odd[0], 16777259.0, 4.0);
    const Tensor x = Tensor::arange(int64_t{0}, int64_t{20000000}, int64_t{1}, DType::Float32);
    EXPECT_NEAR(testing::scalar(x.sum()), 19999999.0 * 20000000.0 / 2, 2e14 * 1e-6);
  }
}

// Kernels index with 32-bit ints: 2^31 elements or more is an error before anything runs, never a crash.
TEST(Indices, TensorsOf2To31ElementsAreRefusedBeforeAnythingRuns) {
  const int before = static_cast<int>(history().count());
  const Tensor a = Tensor::arange(int64_t{0}, int64_t{3000000000});
  EXPECT_TRUE(throws([&] { a.data(); }, "memory", "64-bit indices"));
  // one element, but at an index past 2^31
  EXPECT_TRUE(throws([&] { a.shrink({Range{2999999999, 3000000000}}).item(); }, "memory", "32-bit indices"));
  EXPECT_TRUE(throws([] { Tensor::eye(65536).data(); }, "memory", "64-bit indices"));
  EXPECT_EQ(static_cast<int>(history().count()), before) << "nothing ran";
  EXPECT_EQ(as_int(a.shrink({Range{2147483646, 2147483647}}).item()), 2147483646);
}

// A shape of 2^64 elements or more is refused where it is made; its count never wraps to a small
// number that would pass the size checks (ones(2^32, 2^32) once had numel() 0 and sum 0).
TEST(Indices, ACountPast64BitsIsRefusedWhereTheShapeIsMade) {
  EXPECT_TRUE(throws([] { Tensor::ones({int64_t{1} << 32, int64_t{1} << 32}); }, "shape", "more elements than a 64-bit count holds"));
  EXPECT_TRUE(throws([] { Tensor::ones({int64_t{1} << 31}).reshape({int64_t{1} << 31, 1}).expand({int64_t{1} << 31, int64_t{1} << 33}); },
                     "shape", "64-bit count"));
  EXPECT_EQ(Tensor::ones({int64_t{1} << 40, int64_t{1} << 40, 0}).numel(), 0);  // nothing to count
  EXPECT_EQ(Tensor::ones({int64_t{1} << 31, int64_t{1} << 31}).numel(), int64_t{1} << 62);
}

// The session's generator advances with each call without seed=; manual_seed starts it again.
TEST(Generator, AdvancesAndManualSeedRestarts) {
  manual_seed(0);
  const std::vector<double> first = values(Tensor::rand({3})), second = values(Tensor::rand({3}));
  EXPECT_NE(first, second);
  manual_seed(0);
  std::vector<double> six = values(Tensor::rand({6}));
  EXPECT_EQ(std::vector<double>(six.begin(), six.begin() + 3), first);
  EXPECT_EQ(std::vector<double>(six.begin() + 3, six.end()), second);
  // seed= is a stream of its own and leaves the generator where it was
  const std::vector<double> seeded = values(Tensor::rand({3}, 0));
  EXPECT_EQ(seeded, first);
  manual_seed(0);
  values(Tensor::rand({3}, 9));
  EXPECT_EQ(values(Tensor::rand({3})), first);
  // randn after an odd count of uniforms starts past them, on an even one
  manual_seed(1);
  values(Tensor::rand({3}));
  EXPECT_EQ(values(Tensor::randn({2})), std::vector<double>({static_cast<float>(random_normal(1, 2)),
                                                              static_cast<float>(random_normal(1, 3))}));
  EXPECT_EQ(generator().counter, 8u);
  manual_seed(0);
}

// A kernel's bytes are what its loads and store reach: one element of a 2048x2048 buffer is 4 bytes
// read and 4 written, not 16 MiB.
TEST(Bytes, AreTheIndexFootprintOfEachLoadAndStore) {
  const Tensor big = Tensor::ones({2048, 2048}).contiguous().realize();
  EXPECT_EQ(testing::scalar(big.shrink({Range{0, 1}, Range{0, 1}}).reshape({}).contiguous()), 1.0);
  const KernelRecord& k = last_realization().runs.back().kernel;
  EXPECT_EQ(k.program->bytes, 8);
  // a broadcast load reaches its buffer's elements once
  const Tensor row = tensor({1, 2, 3, 4});
  row.reshape({1, 4}).expand({64, 4}).contiguous().realize();
  EXPECT_EQ(last_realization().runs.back().kernel.program->bytes, (4 + 64 * 4) * 4);
}

// The CUDA, OpenCL and Metal tabs of a CPU kernel show it lowered for a GPU, with GPU opts, and say so.
TEST(BackendTabs, AGpuLanguageShowsACpuKernelLoweredForAGpu) {
  const ScopedOpts opts(Opts::Default);
  Tensor::arange(int64_t{0}, int64_t{4096}, int64_t{1}, DType::Float32).mul(Tensor::full({}, 2.0)).realize();
  const KernelRecord& k = last_realization().runs.back().kernel;
  ASSERT_EQ(k.device, "CPU");
  const BackendLowering cuda = lowering_for_backend(k, "cuda");
  EXPECT_NE(cuda.note.find("lowered for "), std::string::npos) << cuda.note;
  EXPECT_NE(cuda.note.find("LOCAL"), std::string::npos) << cuda.note;
  const std::string src = render("cuda", cuda.program);
  EXPECT_NE(src.find("blockIdx"), std::string::npos) << src;
  EXPECT_NE(src.find("threadIdx"), std::string::npos) << src;
  EXPECT_EQ(src.find("core_id"), std::string::npos) << src;
  for (const char* b : {"opencl", "metal"}) EXPECT_FALSE(lowering_for_backend(k, b).note.empty()) << b;
  // the C tab of a CPU kernel is the kernel as it ran
  EXPECT_TRUE(lowering_for_backend(k, "c").note.empty());
}

// A float becomes an integer by one rule on every device and in the reference (cast_const): truncated to
// int64, saturating at its limits (inf too), nan to 0, then wrapped to the width. C's plain cast of inf
// or of 1e20 is undefined, and the CPU, LLVM and OpenCL once each gave their own.
TEST(FloatToIntCasts, FollowOneRuleOnEveryDevice) {
  const double inf = kInf, nan = std::nan("");
  const std::vector<double> in{inf, -inf, nan, 3e9, -3e9, 1e20, -1e20, 2.7, -2.7};
  const double max = 9223372036854775807.0, min = -9223372036854775808.0;
  const std::vector<std::pair<DType, std::vector<double>>> want{
      {DType::Int64, {max, min, 0, 3e9, -3e9, max, min, 2, -2}},
      {DType::Int32, {-1, 0, 0, -1294967296, 1294967296, -1, 0, 2, -2}},
      {DType::UInt8, {255, 0, 0, 0, 0, 255, 0, 2, 254}},
      {DType::Int8, {-1, 0, 0, 0, 0, -1, 0, 2, -2}}};
  for (const Opts o : {Opts::Noopt, Opts::Default}) {
    const ScopedOpts opts(o);
    for (const char* dev : {"CPU", "LLVM", "OPENCL"}) {
      if (!device_status(dev).empty()) continue;
      for (const DType from : {DType::Float32, DType::Float64}) {
        for (const auto& [to, values_wanted] : want) {
          const Tensor x = tensor(in).cast(from).to(dev).cast(to);
          EXPECT_EQ(values(x), values_wanted) << dev << " " << name(from) << " -> " << name(to);
          EXPECT_TRUE(matches_reference(x)) << dev << " " << name(from) << " -> " << name(to);
        }
      }
    }
  }
}

// A chain of 130 single-use ops (x * 1.001 + 0.5 over and over) renders for every backend with its
// expressions nested at most 16 deep (it was one expression of 260 brackets, which PoCL refused), and
// gives the same bits on every device that opens as the reference: no backend contracts a * b + c.
TEST(LongChains, RenderWithBoundedNestingAndRoundAlikeEverywhere) {
  const auto deepest = [](const std::string& src) {
    int depth = 0, most = 0;
    for (const char c : src) {
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      most = std::max(most, depth);
    }
    return most;
  };
  const auto chain = [](const Tensor& x) {
    Tensor y = x;
    for (int i = 0; i < 130; i++) y = y.mul(Tensor::scalar_like(y, 1.001)).add(Tensor::scalar_like(y, 0.5));
    return y;
  };
  const ScopedOpts opts(Opts::Default);
  chain(tensor({1.0, 2.0})).realize();
  const KernelRecord& k = last_realization().runs.back().kernel;
  for (const std::string& b : backends()) {
    const std::string src = render(b, lowering_for_backend(k, b).program);
    if (b == "llvm" || b == "ptx") continue;  // one instruction a line: nothing nests
    EXPECT_LE(deepest(src), 40) << b << ":\n" << src;
  }
  const std::vector<double> want = values(chain(tensor({1.0, 2.0})));
  EXPECT_TRUE(matches_reference(chain(tensor({1.0, 2.0}))));
  for (const char* dev : {"LLVM", "OPENCL"}) {
    if (!device_status(dev).empty()) continue;
    EXPECT_EQ(values(chain(tensor({1.0, 2.0}).to(dev))), want) << dev;
  }
}

}  // namespace
}  // namespace tr
