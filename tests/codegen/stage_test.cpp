// STAGE: a reduce dim unrolled by AMOUNT, each step's tiles of the loads that a workgroup's threads
// share copied into local memory by the workgroup. What it does to a kernel, where it is refused, and
// what the staging pass makes of a matmul; its values on every device with workgroups:
// OnDevice.StagedMatmulEqualsTheReference.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/base/error.h"
#include "core/opt/apply_opt.h"
#include "core/opt/heuristic.h"
#include "tests/kernel_testing.h"

namespace tr {
namespace {

const Target kGpu{.gpu = true, .local_memory = 48 << 10, .cores = 132, .max_local = 256, .vector_width = 4, .warp_size = 32};

Kernel matmul(int64_t m, int64_t k, int64_t n) {
  return testing::only_kernel(testing::realized_random({m, k}, 1).matmul(testing::realized_random({k, n}, 2)));
}

TEST(Stage, UnrollsTheReduceDimAndMarksItsAxis) {
  const Kernel k = apply_opt(matmul(64, 48, 40), {OptOp::Stage, 2, 8}, kGpu);
  EXPECT_EQ(k.stage_axis, 2);
  ASSERT_EQ(k.dims.size(), 4u);
  EXPECT_EQ(k.dims[2].role, DimRole::Reduce);
  EXPECT_EQ(k.dims[3].role, DimRole::Unroll);
  EXPECT_EQ(k.dims[3].size, 8);
}

TEST(Stage, IsRefusedWithItsReason) {
  const Kernel k = matmul(64, 48, 40);
  EXPECT_NE(testing::opt_refusal(k, {OptOp::Stage, 2, 8}, cpu_target(Isa::Avx2, 4, {})).find("STAGE needs workgroups"), std::string::npos);
  const Kernel staged = apply_opt(k, {OptOp::Stage, 2, 8}, kGpu);
  EXPECT_NE(testing::opt_refusal(staged, {OptOp::Stage, 2, 2}, kGpu).find("staged already"), std::string::npos);
  EXPECT_NE(testing::opt_refusal(staged, {OptOp::Group, 2, 2}, kGpu).find("(STAGE), which takes the reduce whole"), std::string::npos);
  EXPECT_NE(testing::opt_refusal(apply_opt(k, {OptOp::Group, 2, 4}, kGpu), {OptOp::Stage, 2, 4}, kGpu).find("a GROUP's threads"),
            std::string::npos);
  EXPECT_NE(testing::opt_refusal(k, {OptOp::Double, 2, 2}, kGpu).find("STAGE put in local memory; the kernel has none"), std::string::npos);
  EXPECT_NE(testing::opt_refusal(staged, {OptOp::Double, 2, 3}, kGpu).find("the number of halves, 2"), std::string::npos);
  EXPECT_NE(testing::opt_refusal(staged, {OptOp::Double, 0, 2}, kGpu).find("needs a reduce dim"), std::string::npos);
  const Kernel doubled = apply_opt(staged, {OptOp::Double, 2, 2}, kGpu);
  EXPECT_TRUE(doubled.stage_halves);
  EXPECT_EQ(doubled.dims.size(), staged.dims.size());
  EXPECT_NE(testing::opt_refusal(doubled, {OptOp::Double, 2, 2}, kGpu).find("two halves already"), std::string::npos);
}

int count(const UOpProgram& p, UOpKind kind) {
  return static_cast<int>(std::count_if(p.uops.begin(), p.uops.end(), [&](const UOp& u) { return u.kind == kind; }));
}

// A matmul's A and B tiles: each in local memory, copied 4 elements at a time (both step 1 element
// along their innermost variable), between two barriers in the reduce loop; the compute reads B's 4
// columns as one vector. With DOUBLE, where the tiles fit twice (48 KiB), each has two halves: the
// first turn's copies before the loop, and in it one barrier, the next turn's loads before the
// compute and their stores after it; where they fit only once (a device with 3 KiB) they stay single.
TEST(Stage, AMatmulsTilesGoThroughLocalMemory) {
  std::vector<Opt> opts{{OptOp::Upcast, 1, 4}, {OptOp::Upcast, 0, 4}, {OptOp::Stage, 4, 8}, {OptOp::Local, 2, 16}, {OptOp::Local, 0, 4}};
  Target small = kGpu;
  small.local_memory = 3 << 10;
  for (const auto& [doubled, t] : {std::pair{false, kGpu}, std::pair{true, kGpu}, std::pair{true, small}}) {
    const bool halves = doubled && t.local_memory == kGpu.local_memory;
    Kernel k = testing::with_opts(matmul(64, 64, 256), opts, t);
    const auto reduce = std::find_if(k.dims.begin(), k.dims.end(), [](const Dim& d) { return d.role == DimRole::Reduce; });
    if (doubled) k = apply_opt(k, {OptOp::Double, static_cast<int>(reduce - k.dims.begin()), 2}, t);
    const UOpProgram p = codegen(k, t, "r_staged");
    const testing::LocalTraffic local = testing::local_traffic(p);
    // A: 4 threads x 4 rows by 8 steps; B: 8 steps by 16 threads x 4 columns
    EXPECT_EQ(local.sizes, halves ? (std::vector<int64_t>{256, 1024}) : (std::vector<int64_t>{128, 512}));
    EXPECT_EQ(local.vector_stores, (1 + 2) * (halves ? 2 : 1));  // 128 / 4 and 512 / 4 elements by 64 threads
    EXPECT_EQ(local.loads.at(4), 8);                              // B's 4 columns at each of 8 steps
    // where they lie: the copies before the loop, or in it after the compute's last read
    int barriers = 0, depth = 0, copies_before = 0, last_read = -1, first_copy_in = -1;
    for (size_t i = 0; i < p.uops.size(); i++) {
      const UOp& u = p.uops[i];
      depth += u.kind == UOpKind::Range ? 1 : u.kind == UOpKind::EndRange ? -1 : 0;
      barriers += u.kind == UOpKind::Barrier && depth > 0;
      if (u.kind == UOpKind::Store && testing::is_local(p, u.srcs[0])) {
        copies_before += depth == 0;
        if (depth > 0 && first_copy_in < 0) first_copy_in = static_cast<int>(i);
      }
      if (u.kind == UOpKind::Load && testing::is_local(p, u.srcs[0])) last_read = static_cast<int>(i);
    }
    EXPECT_EQ(barriers, halves ? 1 : 2);
    EXPECT_EQ(copies_before, halves ? 1 + 2 : 0);
    EXPECT_EQ(first_copy_in > last_read, halves);
  }
}

// B of x @ w.T lies along K in global memory, and the compute reads it as vectors along N: its tile
// lies along N in local memory (rows of 4 x 16 columns and 4 unused floats), each copy reads 4
// neighbours along K and stores them into 4 rows, and the compute still reads B's 4 columns as one
// vector. A's tile is as in x @ w.
TEST(Stage, ATransposedOperandsTileLiesAlongTheVector) {
  const Tensor x = testing::realized_random({64, 64}, 1), w = testing::realized_random({64, 64}, 2);
  const Kernel k = testing::with_opts(testing::only_kernel(x.matmul(w.T())), {{OptOp::Upcast, 1, 4}, {OptOp::Stage, 3, 8}, {OptOp::Local, 1, 16}, {OptOp::Local, 0, 4}}, kGpu);
  const testing::LocalTraffic local = testing::local_traffic(codegen(k, kGpu, "r_linear"));
  // A: 4 threads' rows by 8 steps; B: 8 steps by (16 threads x 4 columns + 4); its 512 elements by 64
  // threads, 4 at a time, 4 stores each
  EXPECT_EQ(local.sizes, (std::vector<int64_t>{4 * 8, 8 * 68}));
  EXPECT_EQ(local.lane_stores, 512 / 64 / 4 * 4);
  EXPECT_EQ(local.loads.at(4), 8);
}

// A load that every thread reads differently has no tile to share: a row sum's rows stay in global
// memory (nothing staged, and the kernel is the unrolled one).
TEST(Stage, LoadsNoTwoThreadsShareStayInGlobalMemory) {
  const Kernel k = testing::only_kernel(testing::realized_random({64, 64}, 3).sum(std::vector<int>{1}));
  const Kernel staged = testing::with_opts(k, {{OptOp::Stage, 1, 8}, {OptOp::Local, 0, 16}}, kGpu);
  EXPECT_EQ(count(codegen(staged, kGpu, "r_rows"), UOpKind::DefineLocal), 0);
}

// Half that the target keeps only in its buffers (NVIDIA's OpenCL) has no local arrays: its loads stay
// in global memory; with half arithmetic they are staged.
TEST(Stage, HalfKeptInBuffersStaysThere) {
  Tensor a = testing::realized_random({64, 64}, 4).cast(DType::Float16), b = testing::realized_random({64, 64}, 5).cast(DType::Float16);
  a.realize();
  b.realize();
  const Kernel k = testing::only_kernel(a.matmul(b));
  Target in_buffers = kGpu;
  in_buffers.half_arithmetic = false;
  for (const bool arithmetic : {true, false}) {
    const Target& t = arithmetic ? kGpu : in_buffers;
    // the 16 threads along N read A's rows alike; each reads its own column of B
    const Kernel staged = apply_opt(apply_opt(k, {OptOp::Stage, 2, 8}, t), {OptOp::Local, 1, 16}, t);
    EXPECT_EQ(count(codegen(staged, t, "r_half"), UOpKind::DefineLocal), arithmetic ? 1 : 0);
    // and the default opts stage it only where it can be
    EXPECT_EQ(default_opts(k, t).stage_axis >= 0, arithmetic);
  }
}

TEST(Stage, TheDefaultOptsStageAGpuMatmulAndPadItsReduceDim) {
  const Kernel even = default_opts(matmul(256, 256, 256), kGpu);
  EXPECT_EQ(even.stage_axis, 2);
  EXPECT_TRUE(std::find(even.opts.begin(), even.opts.end(), Opt{OptOp::Stage, 4, 16}) != even.opts.end());
  // 250 is padded to 256 (the sum of products is 0 in the padding)
  const Kernel odd = default_opts(matmul(256, 250, 256), kGpu);
  EXPECT_EQ(odd.stage_axis, 2);
  EXPECT_FALSE(default_opts(matmul(256, 256, 256), cpu_target(Isa::Avx2, 4, {})).stage_axis >= 0);
}

}  // namespace
}  // namespace tr
