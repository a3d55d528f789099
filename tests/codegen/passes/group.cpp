// The group pass alone (core/codegen/group.cpp), after loops and expand: a GROUP's threads each leave
// their partial result in local memory, every thread combines its group's partials, and only the
// group's first thread stores.
#include "tests/codegen/passes/pass_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

TEST(GroupPass, PartialsGoThroughLocalMemoryAndTheFirstThreadStores) {
  const Kernel k = with_opts(only_kernel(realized_random({4, 64}, 7).sum(std::vector<int>{1})), {{OptOp::Group, 1, 16}}, kPassGpu);
  Lowering low{k, kPassGpu};
  const UGraph expanded = expand(lower_loops(low), low);
  const UGraph g = group(expanded, low);
  EXPECT_EQ(count_kind(expanded, UOpKind::DefineLocal), 0);
  ASSERT_EQ(count_kind(g, UOpKind::DefineLocal), 1);
  int local = -1;
  for (const int i : toposort(g))
    if (g[i].kind == UOpKind::DefineLocal) local = i;
  EXPECT_EQ(g[local].size, 16);  // one partial per thread of the group
  const auto on_local = [&](UOpKind kind) {
    return count_nodes(g, [&](const UOp& u) { return u.kind == kind && u.srcs[0] == local; });
  };
  EXPECT_EQ(on_local(UOpKind::Store), 1);
  EXPECT_EQ(on_local(UOpKind::Load), 1);  // inside the loop over the group's partials
  EXPECT_EQ(count_kind(g, UOpKind::DefineAcc), 2);  // each thread's part, then the group's
  // the output's store is gated: the first thread of the group
  EXPECT_EQ(count_nodes(g, [&](const UOp& u) { return u.kind == UOpKind::Store && u.srcs[0] != local && u.srcs.size() == 4; }), 1);
}

}  // namespace
}  // namespace tr
