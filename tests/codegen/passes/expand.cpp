// The expand pass alone (core/codegen/expand.cpp), on what the loops pass made of a kernel: an UPCAST's
// loop becomes vector lanes where the target has vectors and the lanes are contiguous, and copies where
// it has none; an UNROLL's loop becomes copies combined inside the reduce.
#include "tests/codegen/passes/pass_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

UGraph loops_then_expand(const Kernel& k, const Target& t) {
  Lowering low{k, t};
  return expand(lower_loops(low), low);
}

TEST(ExpandPass, AnUpcastBecomesVectorLanesWhereTheTargetHasVectors) {
  // an element-wise kernel of 4x16 is one dim of 64, of which the upcast takes 4
  const Tensor y = realized_random({4, 16}, 3).add(realized_random({4, 16}, 4));
  const Kernel k = with_opts(only_kernel(y), {{OptOp::Upcast, 0, 4}}, kPassGpu);
  Lowering low{k, kPassGpu};
  const UGraph before = lower_loops(low);
  const UGraph after = expand(before, low);
  const auto vector_loads = [](const UOp& u) { return u.kind == UOpKind::Load && u.vec == 4; };
  EXPECT_EQ(count_nodes(before, vector_loads), 0);
  EXPECT_EQ(count_nodes(after, vector_loads), 2);  // each operand's 4 lanes in one load
  EXPECT_EQ(count_nodes(after, [](const UOp& u) { return u.kind == UOpKind::Store && u.srcs.size() > 2; }), 1);
  EXPECT_EQ(count_kind(after, UOpKind::Range), count_kind(before, UOpKind::Range) - 1);
}

TEST(ExpandPass, AnUpcastBecomesCopiesWithoutVectors) {
  const Tensor y = realized_random({4, 16}, 5).exp2();
  const UGraph g = loops_then_expand(with_opts(only_kernel(y), {{OptOp::Upcast, 0, 4}}, kScalarCpu), kScalarCpu);
  EXPECT_EQ(count_kind(g, UOpKind::Load), 4);
  EXPECT_EQ(count_kind(g, UOpKind::Store), 4);
  EXPECT_EQ(count_nodes(g, [](const UOp& u) { return u.vec > 1; }), 0);
}

TEST(ExpandPass, AnUnrollBecomesCopiesCombinedInsideTheReduce) {
  const Tensor rows = realized_random({4, 8}, 6).sum(std::vector<int>{1});
  const UGraph g = loops_then_expand(with_opts(only_kernel(rows), {{OptOp::Unroll, 1, 4}}, kScalarCpu), kScalarCpu);
  EXPECT_EQ(count_kind(g, UOpKind::Load), 4);
  EXPECT_EQ(count_kind(g, UOpKind::Range), 2);  // rows and the reduce's 2 steps
  EXPECT_EQ(count_kind(g, UOpKind::DefineAcc), 1);
  EXPECT_EQ(count_kind(g, UOpKind::Store), 1);
}

}  // namespace
}  // namespace tr
