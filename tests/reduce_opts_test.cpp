// The default opts of reduces that are not matmuls, read from hand-built targets: a column sum reads
// neighbouring outputs' elements as vectors as wide as the target's registers.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/kernel.h"
#include "core/opt/heuristic.h"
#include "core/schedule.h"
#include "tests/kernel_testing.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

int widest_load(const UOpProgram& p) {
  int w = 0;
  for (const UOp& u : p.uops)
    if (u.kind == UOpKind::Load) w = std::max(w, u.vec);
  return w;
}

TEST(ColumnSum, LoadsVectorsAsWideAsTheTargetsRegistersAcrossNeighbouringColumns) {
  const Kernel k = only_kernel(realized_random({64, 256}, 1).sum(std::vector<int>{0}));
  for (const Isa isa : {Isa::Sse, Isa::Avx2, Isa::Avx512}) {
    const Target t = cpu_target(isa, 2, {});
    const Kernel opted = default_opts(k, t);
    ASSERT_FALSE(opted.opts.empty());
    EXPECT_EQ(opted.opts[0], (Opt{OptOp::Upcast, 0, isa_float_lanes(isa)})) << isa_name(isa);
    EXPECT_EQ(widest_load(codegen(opted, t, "colsum")), isa_float_lanes(isa)) << isa_name(isa);
  }
}

TEST(ColumnSum, ARowSumIsNotTakenForOne) {
  const Kernel k = only_kernel(realized_random({64, 256}, 2).sum(std::vector<int>{1}));
  for (const Opt& o : default_opts(k, cpu_target(Isa::Avx2, 2, {})).opts)
    EXPECT_FALSE(o.op == OptOp::Upcast && o.amount == 8) << o.str();
}

TEST(ColumnSum, ValuesMatchTheReferenceWithTheDefaultOpts) {
  const ScopedOpts opts(Opts::Default);
  for (const Shape& s : std::vector<Shape>{{64, 256}, {33, 128}, {7, 1024}})
    EXPECT_TRUE(matches_reference(realized_random(s, 3).sum(std::vector<int>{0})));
}

}  // namespace
}  // namespace tr
