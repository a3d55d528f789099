// The default opts of reduces that are not matmuls, read from hand-built targets: a column sum reads
// neighbouring outputs' elements as vectors as wide as the target's registers, 8 of them side by side;
// a row sum accumulates vectors as wide along the row.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/kernel.h"
#include "core/opt/apply_opt.h"
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

TEST(ColumnSum, ReadsEightVectorsSideBySide) {
  const Kernel k = only_kernel(realized_random({64, 256}, 1).sum(std::vector<int>{0}));
  const Kernel opted = default_opts(k, cpu_target(Isa::Avx2, 2, {}));
  ASSERT_GE(opted.opts.size(), 2u);
  EXPECT_EQ(opted.opts[1], (Opt{OptOp::Upcast, 0, 8}));
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

int vector_accumulators(const UOpProgram& p, int lanes) {
  int n = 0;
  for (const UOp& u : p.uops) n += u.kind == UOpKind::DefineAcc && u.vec == lanes;
  return n;
}

// The row's reduce is unrolled by the target's lanes, which become the lanes of its accumulators (one
// vector load and one vector add per step), then by 4 more, each an accumulator of its own.
TEST(RowSum, AccumulatesVectorsAsWideAsTheTargetsRegistersAlongTheRow) {
  const Kernel k = only_kernel(realized_random({64, 256}, 4).sum(std::vector<int>{1}));
  for (const Isa isa : {Isa::Sse, Isa::Avx2, Isa::Avx512}) {
    const Target t = cpu_target(isa, 2, {});
    const int lanes = isa_float_lanes(isa);
    const Kernel opted = default_opts(k, t);
    ASSERT_GE(opted.opts.size(), 2u) << isa_name(isa);
    EXPECT_EQ(opted.opts[0], (Opt{OptOp::Unroll, 1, lanes})) << isa_name(isa);
    EXPECT_EQ(opted.opts[1], (Opt{OptOp::Unroll, 1, 4})) << isa_name(isa);
    const UOpProgram p = codegen(opted, t, "rowsum");
    EXPECT_EQ(widest_load(p), lanes) << isa_name(isa);
    EXPECT_EQ(vector_accumulators(p, lanes), 4) << isa_name(isa);
  }
  // a GPU's threads read neighbouring elements: no vector accumulator there
  const Target gpu{.gpu = true, .local_memory = 48 << 10, .cores = 132, .max_local = 256, .vector_width = 4};
  const Kernel unrolled = apply_opt(k, {OptOp::Unroll, 1, 4}, gpu);
  EXPECT_EQ(vector_accumulators(codegen(unrolled, gpu, "rowsum"), 4), 0);
}

// Sums, maxes and dot products along rows (a row of one vector's lanes plus a remainder, rows too short
// to unroll), with the CPU's default opts: the reference's values.
TEST(RowSum, ValuesMatchTheReferenceWithTheDefaultOpts) {
  const ScopedOpts opts(Opts::Default);
  for (const Shape& s : std::vector<Shape>{{64, 256}, {3, 1024}, {5, 48}, {9, 7}}) {
    const Tensor x = realized_random(s, 5), y = realized_random(s, 6);
    EXPECT_TRUE(matches_reference(x.sum(std::vector<int>{1}))) << s[1];
    EXPECT_TRUE(matches_reference(x.max(std::vector<int>{1}))) << s[1];
    EXPECT_TRUE(matches_reference(x.mul(y).sum(std::vector<int>{1}))) << s[1];
  }
}

}  // namespace
}  // namespace tr
