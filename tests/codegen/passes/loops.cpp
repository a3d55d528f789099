// The loops pass alone (core/codegen/loops.cpp): a kernel's dims become loops (RANGE) on a CPU and launch
// ids (SPECIAL) on a GPU, a dim an opt unrolls stays a loop for the expand pass, and the AST becomes a
// load, an accumulator with its ASSIGN, and the store.
#include "tests/codegen/passes/pass_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

TEST(LoopsPass, DimsBecomeLoopsOnTheCpuAndLaunchIdsOnTheGpu) {
  const Tensor rows = realized_random({4, 8}, 1).sum(std::vector<int>{1});
  const Kernel k = only_kernel(rows);
  Lowering cpu{k, kScalarCpu};
  const UGraph g = lower_loops(cpu);
  EXPECT_EQ(count_kind(g, UOpKind::Range), 2);  // the 4 rows and the reduce of 8
  EXPECT_EQ(count_kind(g, UOpKind::Special), 0);
  EXPECT_EQ(count_kind(g, UOpKind::DefineGlobal), 2);
  EXPECT_EQ(count_kind(g, UOpKind::Load), 1);
  EXPECT_EQ(count_kind(g, UOpKind::DefineAcc), 1);
  EXPECT_EQ(count_kind(g, UOpKind::Assign), 1);
  EXPECT_EQ(count_kind(g, UOpKind::Store), 1);
  EXPECT_EQ(cpu.dim_vars.size(), k.dims.size());

  const Kernel on_gpu = only_kernel(rows);
  Lowering gpu{on_gpu, kPassGpu};
  const UGraph h = lower_loops(gpu);
  EXPECT_EQ(count_kind(h, UOpKind::Special), 1);  // the rows are a launch id
  EXPECT_EQ(count_kind(h, UOpKind::Range), 1);    // the reduce stays a loop
}

TEST(LoopsPass, AnUnrolledDimStaysALoopForTheExpandPass) {
  const Kernel k = with_opts(only_kernel(realized_random({4, 8}, 2).sum(std::vector<int>{1})), {{OptOp::Unroll, 1, 4}}, kScalarCpu);
  Lowering low{k, kScalarCpu};
  const UGraph g = lower_loops(low);
  EXPECT_EQ(count_kind(g, UOpKind::Range), 3);  // rows, the reduce's 2 steps and its unrolled 4
  EXPECT_EQ(count_kind(g, UOpKind::Load), 1);
}

// A launch id and a loop can print alike (both gidx0 here): the index variables that stand for them
// must still be two, each turning back into its own node.
TEST(LoopsPass, IndexVariablesStandForTheirNodeNotTheirName) {
  const Kernel k = only_kernel(realized_random({4, 8}, 3).sum(std::vector<int>{1}));
  Lowering low{k, kScalarCpu};
  const UOp id{.kind = UOpKind::Special, .dtype = kIndex, .size = 4, .launch = LaunchKind::Global, .number = 0};
  const UOp loop{.kind = UOpKind::Range, .dtype = kIndex, .range = RangeKind::Loop, .number = 0};
  ASSERT_EQ(uop_name(id), uop_name(loop));
  const ExprRef a = low.bind(id, 4), b = low.bind(loop, 8);
  EXPECT_FALSE(same_expr(a, b));
  UGraph g;
  const int from_a = index_node(g, low, a), from_b = index_node(g, low, b);
  EXPECT_NE(from_a, from_b);
  EXPECT_EQ(g[from_a].kind, UOpKind::Special);
  EXPECT_EQ(g[from_b].kind, UOpKind::Range);
}

}  // namespace
}  // namespace tr
