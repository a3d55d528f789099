// The scheduler's fusion rules (DESIGN.md "Schedule"), under NOOPT: which graphs become one kernel,
// where the kernel boundaries fall and the reason each one gives, and how kernels are named.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <regex>
#include <string>
#include <vector>

#include "core/kernel/ast.h"
#include "core/realize/realize.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

constexpr DType F32 = DType::Float32, I32 = DType::Int32;

class Fusion : public ::testing::Test {
 protected:
  ScopedOpts opts_{Opts::Noopt};
};

std::vector<ScheduleItem> schedule_of(const std::vector<Tensor>& xs) {
  std::vector<LazyRef> outs;
  for (const Tensor& x : xs) outs.push_back(base_of(x.node()));
  return create_schedule(outs);
}

std::vector<ScheduleItem> kernel_items(const std::vector<Tensor>& xs) {
  std::vector<ScheduleItem> out;
  for (ScheduleItem& i : schedule_of(xs))
    if (i.kind == ScheduleItem::Kind::Kernel) out.push_back(std::move(i));
  return out;
}

int copies_of(const std::vector<Tensor>& xs) {
  const auto items = schedule_of(xs);
  return static_cast<int>(std::count_if(items.begin(), items.end(),
                                        [](const ScheduleItem& i) { return i.kind == ScheduleItem::Kind::Copy; }));
}

bool has_reduce(const AstRef& ast) {
  bool found = false;
  walk(ast, [&](const AstNode& n) { found = found || n.op == AstOp::Reduce; });
  return found;
}

// Realizes xs and returns the records of the kernels that ran.
std::vector<KernelRecord> run(std::vector<Tensor> xs) {
  realize_all(xs);
  std::vector<KernelRecord> out;
  for (const RunRecord& r : last_realization().runs)
    if (!r.is_copy) out.push_back(r.kernel);
  return out;
}

// The one kernel that realizes x (it must be the last of x's schedule).
KernelRecord run_one(const Tensor& x) {
  const std::vector<KernelRecord> ks = run({x});
  EXPECT_EQ(ks.size(), 1u);
  return ks.empty() ? KernelRecord{} : ks.back();
}

std::string reasons(const std::vector<ScheduleItem>& items) {
  std::string out;
  for (const ScheduleItem& i : items) out += "\n  " + i.reason;
  return out;
}

// name is `base` or `base` with an n-suffix from an earlier, different kernel of the same name
::testing::AssertionResult named(const KernelRecord& k, const std::string& base) {
  if (k.kernel->base_name() == base && std::regex_match(k.name, std::regex(base + "(n[0-9]+)?")))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "kernel named " << k.name << " (base " << k.kernel->base_name()
                                       << "), expected " << base;
}

Tensor input(const Shape& shape, uint64_t seed, DType t = F32) {
  std::mt19937_64 rng(seed);
  return tensor(random_values(rng, prod(shape), t, t == F32 ? 0.1 : 1, t == F32 ? 2 : 9), shape, t);
}

// ---- how many kernels (and copies) each program takes, every boundary with a reason ----

struct FusionCase {
  const char* name;
  std::function<std::vector<Tensor>()> build;
  int kernels;
  int copies;
};

void PrintTo(const FusionCase& c, std::ostream* os) { *os << c.name; }

const std::vector<FusionCase>& fusion_cases() {
  static const std::vector<FusionCase> cases{
      {"elementwise_chain",
       [] {
         const Tensor a = input({4, 4}, 1), b = input({4, 4}, 2);
         return std::vector{a.add(b).mul(a).exp().relu().sub(b.sqrt()).maximum(a.T())};
       },
       1, 2},
      {"reduce_with_elementwise_before_and_after",
       [] {
         return std::vector{input({4, 8}, 3)
                                .mul(Tensor::full({}, 2.0))
                                .add(Tensor::full({}, 1.0))
                                .sum(std::vector<int>{1})
                                .sqrt()
                                .neg()};
       },
       1, 1},
      {"mean",
       [] {
         return std::vector{input({4, 8}, 4).mean(std::vector<int>{0})};
       },
       1, 1},
      {"matmul_relu",
       [] {
         return std::vector{input({3, 5}, 5).matmul(input({5, 2}, 6)).relu()};
       },
       1, 2},
      {"var",
       [] {
         return std::vector{tensor({1, 2, 3, 4}).var()};
       },
       1, 1},
      {"std_keepdim_over_rows",
       [] {
         return std::vector{input({4, 8}, 18).std(std::vector<int>{1}, true)};
       },
       1, 1},
      {"layernorm",
       [] {
         return std::vector{input({4, 8}, 19).layernorm(std::vector<int>{-1})};
       },
       1, 1},
      {"logsumexp",
       [] {
         return std::vector{input({4, 8}, 20).logsumexp(std::vector<int>{1})};
       },
       1, 1},
      {"centered_over_rows",
       [] {
         const Tensor x = input({4, 8}, 21);
         return std::vector{x.sub(x.mean(std::vector<int>{1}, true))};
       },
       1, 1},
      // used twice inside its own kernel's epilogue: the accumulator serves both uses
      {"reduce_used_twice_in_its_epilogue",
       [] {
         const Tensor s = input({4, 4}, 7).sum(std::vector<int>{1});
         return std::vector{s.mul(s.add(Tensor::full({}, 1.0)))};
       },
       1, 1},
      {"reduce_feeding_two_outputs",
       [] {
         const Tensor s = input({4, 4}, 8).sum(std::vector<int>{1});
         return std::vector{s.exp(), s.sqrt()};
       },
       3, 1},
      {"sum_of_max",
       [] {
         return std::vector{input({4, 4}, 9).max(std::vector<int>{1}).sum()};
       },
       2, 1},
      {"two_reduces_added",
       [] {
         const Tensor x = input({4, 4}, 10);
         return std::vector{x.sum(std::vector<int>{1}).add(x.max(std::vector<int>{1}))};
       },
       1, 1},
      {"reduces_over_other_rows",
       [] {
         const Tensor x = input({4, 8}, 22);
         return std::vector{x.sub(x.mean(std::vector<int>{0}, true)).sum(std::vector<int>{1})};
       },
       2, 1},
      {"reduce_read_through_a_permute",
       [] {
         return std::vector{input({2, 3, 4}, 11).sum(std::vector<int>{2}).T().add(input({3, 2}, 12))};
       },
       2, 2},
      {"reduce_read_through_a_pad",
       [] {
         return std::vector{input({3, 4}, 13).sum(std::vector<int>{1}).pad({{1, 1}}).exp()};
       },
       2, 1},
      {"contiguous",
       [] {
         return std::vector{input({4, 4}, 14).add(Tensor::full({}, 1.0)).contiguous().mul(Tensor::full({}, 2.0))};
       },
       2, 1},
      {"contiguous_of_a_view",
       [] {
         return std::vector{input({4, 4}, 15).T().contiguous().add(Tensor::full({}, 1.0))};
       },
       2, 1},
      {"arange_sum",
       [] { return std::vector{Tensor::arange(int64_t{0}, int64_t{4}).add(Tensor::full({}, int64_t{1})).sum()}; }, 1,
       0},
      {"eye_sum", [] { return std::vector{Tensor::eye(3).sum()}; }, 1, 0},
      {"full_times_arange",
       [] {
         return std::vector{Tensor::full({3, 3}, 2.0).mul(Tensor::arange(0.0, 3.0)).sum(std::vector<int>{0})};
       },
       1, 0},
      {"linspace_sum", [] { return std::vector{Tensor::linspace(int64_t{0}, int64_t{1}, 5).sum()}; }, 1, 0},
      {"softmax",
       [] {
         return std::vector{input({4, 8}, 16).softmax()};
       },
       1, 1},
      {"log_softmax",
       [] {
         return std::vector{input({4, 8}, 17).log_softmax()};
       },
       1, 1},
  };
  return cases;
}

class FusionCases : public ::testing::TestWithParam<FusionCase> {
 protected:
  ScopedOpts opts_{Opts::Noopt};
};

INSTANTIATE_TEST_SUITE_P(Noopt, FusionCases, ::testing::ValuesIn(fusion_cases()),
                         [](const auto& info) { return std::string(info.param.name); });

TEST_P(FusionCases, KernelCountCopiesReasonsAndValues) {
  const std::vector<Tensor> xs = GetParam().build();
  EXPECT_EQ(count_kernels(xs), GetParam().kernels) << reasons(schedule_of(xs));
  for (const Tensor& x : xs) EXPECT_FALSE(x.realized()) << "counting kernels runs nothing";
  EXPECT_EQ(copies_of(xs), GetParam().copies);
  for (const ScheduleItem& item : schedule_of(xs)) EXPECT_FALSE(item.reason.empty()) << "an item without a reason";
  EXPECT_EQ(static_cast<int>(run(xs).size()), GetParam().kernels) << "kernels run";
  for (const Tensor& x : xs) EXPECT_TRUE(matches_reference(x));
}

// ---- the rules one by one ----

TEST_F(Fusion, ElementwiseChainIsOneKernelWithTheOutputsReason) {
  const Tensor a = input({4, 4}, 21), b = input({4, 4}, 22);
  const Tensor y = a.add(b).mul(b).exp2().neg().maximum(a);
  const auto ks = kernel_items({y});
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_NE(ks[0].reason.find("output"), std::string::npos) << ks[0].reason;
  EXPECT_EQ(ks[0].inputs.size(), 2u) << "loads a and b, nothing else";
}

TEST_F(Fusion, ReduceFusesWithWhatComesBeforeAndAfter) {
  const Tensor x = input({4, 8}, 23);
  const Tensor y = x.square().mul(x).max(std::vector<int>{1}, true).log().add(Tensor::full({}, 3.0));
  ASSERT_EQ(count_kernels({y}), 1) << reasons(schedule_of({y}));
  const KernelRecord k = run_one(y);
  EXPECT_TRUE(has_reduce(k.kernel->ast));
  EXPECT_TRUE(named(k, "r_4_8"));
  EXPECT_TRUE(matches_reference(y));
}

TEST_F(Fusion, MatmulReluIsOneReduceKernel) {
  const Tensor y = input({4, 3}, 24).matmul(input({3, 5}, 25)).relu();
  ASSERT_EQ(count_kernels({y}), 1) << reasons(schedule_of({y}));
  const KernelRecord k = run_one(y);
  EXPECT_TRUE(has_reduce(k.kernel->ast));
  EXPECT_TRUE(named(k, "r_4_5_3"));
  EXPECT_TRUE(matches_reference(y));
}

TEST_F(Fusion, VarIsOneKernelThatWalksItsRowTwice) {
  const Tensor v = tensor({1, 2, 3, 4}).var();
  const KernelRecord k = run_one(v);
  EXPECT_EQ(k.kernel->row_passes, 2) << "the mean, then the squares";
  EXPECT_NEAR(scalar(v), 1.6666666, 1e-6);
}

TEST_F(Fusion, ALongRowIsSummedInPiecesAndBroadcastFromItsOwnBuffer) {
  // a reduce long enough to be split into pieces leaves the rows: its last piece is broadcast
  const Tensor x = Tensor::arange(0.0, double(int64_t{1} << 26));
  const auto ks = kernel_items({x.sub(x.mean())});
  ASSERT_EQ(ks.size(), 3u) << reasons(ks);
  EXPECT_NE(ks[1].reason.find("expanded (broadcast)"), std::string::npos) << ks[1].reason;
}

TEST_F(Fusion, ReduceUsedByTwoKernelsIsComputedOnce) {
  const Tensor s = input({4, 4}, 26).sum(std::vector<int>{1});
  const std::vector<Tensor> ys{s.exp(), s.sqrt()};
  const auto ks = kernel_items(ys);
  ASSERT_EQ(ks.size(), 3u);
  EXPECT_NE(ks[0].reason.find("more than once"), std::string::npos) << ks[0].reason;
  const std::vector<KernelRecord> ran = run(ys);
  EXPECT_EQ(std::count_if(ran.begin(), ran.end(), [](const KernelRecord& k) { return has_reduce(k.kernel->ast); }), 1)
      << "the sum runs in one kernel only";
  for (const Tensor& y : ys) EXPECT_TRUE(matches_reference(y));
}

TEST_F(Fusion, ReducesOverOtherRowsAreTwoKernels) {
  const Tensor y = input({4, 4}, 27).max(std::vector<int>{1}).sum();
  const auto ks = kernel_items({y});
  ASSERT_EQ(ks.size(), 2u);
  EXPECT_NE(ks[0].reason.find("feeds another reduce over other rows"), std::string::npos) << ks[0].reason;
  const std::vector<KernelRecord> ran = run({y});
  ASSERT_EQ(ran.size(), 2u);
  EXPECT_TRUE(named(ran[0], "r_4_4"));
  EXPECT_TRUE(named(ran[1], "r_4"));
  EXPECT_TRUE(matches_reference(y));
}

TEST_F(Fusion, ContiguousIsABoundaryWithItsReason) {
  const Tensor base = input({4, 4}, 28).add(Tensor::full({}, 1.0)).contiguous();
  const auto ks = kernel_items({base.mul(Tensor::full({}, 2.0))});
  ASSERT_EQ(ks.size(), 2u);
  EXPECT_NE(ks[0].reason.find("contiguous()"), std::string::npos) << ks[0].reason;

  const Tensor view = input({4, 4}, 29).T().contiguous();
  const auto vs = kernel_items({view.exp()});
  ASSERT_EQ(vs.size(), 2u);
  EXPECT_NE(vs[0].reason.find("contiguous()"), std::string::npos) << vs[0].reason;
}

TEST_F(Fusion, RealizedTensorsAreLoadedNotRecomputed) {
  Tensor t = input({4, 4}, 30).exp();
  t.realize();
  ASSERT_EQ(last_realization().schedule.size(), 2u) << "the input's copy and t's kernel";
  EXPECT_FALSE(last_realization().schedule.back().reason.empty());
  const Tensor y = t.mul(Tensor::full({}, 2.0));
  const auto ks = kernel_items({y});
  ASSERT_EQ(ks.size(), 1u);
  ASSERT_EQ(ks[0].inputs.size(), 1u);
  EXPECT_EQ(ks[0].inputs[0], base_of(t.node())) << "the kernel reads t's buffer";
  EXPECT_EQ(std::count(ks[0].fused.begin(), ks[0].fused.end(), base_of(t.node())->id), 0) << "t is not recomputed";
  EXPECT_EQ(count_kernels({t}), 0) << "nothing left to run for t";
  EXPECT_TRUE(matches_reference(y));
}

// A chain of ops is cut where its graph reaches kMaxLazyDepth: that node is realized, with the reason,
// and the chain goes on from its buffer. 2500 adds make two cuts and a last kernel, and the right values.
TEST_F(Fusion, ADeepChainIsCutWhereItReachesTheDepthLimit) {
  Tensor x = Tensor::full({3}, 1.0);
  int cuts = 0;
  for (int i = 0; i < 2500; i++) {
    x = x.add(Tensor::full({}, 1.0));
    ASSERT_LE(x.node()->depth, kMaxLazyDepth);
    if (!x.realized()) continue;
    cuts++;
    EXPECT_EQ(last_realization().schedule.back().reason, "the graph reached 1000 ops deep, where it is cut");
    EXPECT_EQ(x.node()->depth, 0);
  }
  EXPECT_EQ(cuts, 2);
  EXPECT_EQ(count_kernels({x}), 1);
  const HostData got = x.data();
  for (int64_t i = 0; i < 3; i++) EXPECT_EQ(std::get<double>(got.get(i)), 2501.0);
}

// Reading a view that shows its base's buffer in order (a reshape) copies the buffer out as it is;
// any other view is first made contiguous by a kernel.
TEST_F(Fusion, ReadingAReshapedResultRunsNoCopyKernel) {
  const auto kernels_run = [] {
    std::vector<std::string> names;
    for (const RunRecord& r : last_realization().runs)
      if (!r.is_copy) names.push_back(r.kernel.program->name);
    return names;
  };
  const Tensor x = input({3, 4}, 40);
  const Tensor s = x.sum(std::vector<int>{1});
  ASSERT_TRUE(s.node()->is_view()) << "the reduce keeps its axis, a reshape drops it";
  s.data();
  EXPECT_EQ(kernels_run(), std::vector<std::string>{"r_3_4"}) << "the reduce, and no copy kernel after it";
  EXPECT_TRUE(matches_reference(s));
  x.permute({1, 0}).data();
  EXPECT_EQ(kernels_run(), std::vector<std::string>{"E_4_3"});
  EXPECT_EQ(last_realization().schedule.back().reason, "contiguous() asks for its own buffer");
}

TEST_F(Fusion, CreationOpsFuseIntoTheirConsumer) {
  const Tensor a = Tensor::arange(int64_t{0}, int64_t{4}).add(Tensor::full({}, int64_t{1})).sum();
  EXPECT_EQ(count_kernels({a}), 1);
  EXPECT_EQ(copies_of({a}), 0);
  EXPECT_EQ(std::get<int64_t>(a.item()), 10);
  EXPECT_EQ(last_realization().runs.size(), 1u) << "one kernel, no copy";
  EXPECT_EQ(scalar(Tensor::eye(3).sum()), 3);
  EXPECT_DOUBLE_EQ(scalar(Tensor::linspace(int64_t{0}, int64_t{1}, 5).sum()), 2.5);
  EXPECT_DOUBLE_EQ(scalar(Tensor::full({2, 3}, 1.5).sum()), 9);
}

TEST_F(Fusion, SoftmaxKernelsAndValues) {
  const Tensor x = input({4, 8}, 31);
  const Tensor y = x.softmax();
  const KernelRecord k = run_one(y);
  EXPECT_EQ(k.kernel->row_passes, 3) << "the max, the sum of exps, then the output";
  EXPECT_TRUE(has_values(y.sum(std::vector<int>{1}), std::vector<double>(4, 1.0), Tolerance{1e-6, 1e-6}));
  EXPECT_TRUE(matches_reference(y));
}

// ---- names ----

TEST_F(Fusion, DotProductIsR2) {
  const KernelRecord k = run_one(tensor({1, 2}, I32).mul(tensor({3, 4}, I32)).sum());
  EXPECT_TRUE(named(k, "r_2"));
}

TEST_F(Fusion, ContiguousDimsMergeInNames) {
  const Tensor a = input({4, 4}, 32), b = input({4, 4}, 33);
  EXPECT_TRUE(named(run_one(a.add(b)), "E_16")) << "a contiguous 4x4 add is one dim of 16";
  EXPECT_TRUE(named(run_one(a.add(b.T())), "E_4_4")) << "a transposed operand keeps both dims";
  EXPECT_TRUE(named(run_one(input({2, 3, 4}, 34).sum(std::vector<int>{1})), "r_2_4_3")) << "reduce dims go last";
  EXPECT_TRUE(named(run_one(input({2, 3, 4}, 35).sum(std::vector<int>{1, 2})), "r_2_12"));
}

TEST_F(Fusion, ReusedNamesGetSuffixes) {
  // a size no other test uses, so that this test sees the name first
  const Tensor a = input({13}, 36), b = input({13}, 37);
  EXPECT_EQ(run_one(a.add(b)).name, "E_13");
  EXPECT_EQ(run_one(a.mul(b)).name, "E_13n1");
  EXPECT_EQ(run_one(a.sub(b)).name, "E_13n2");
  EXPECT_EQ(run_one(input({13}, 38).add(input({13}, 39))).name, "E_13") << "the same AST keeps its name";
}

}  // namespace
}  // namespace tr
