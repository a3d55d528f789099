// STAGE: a reduce dim unrolled by AMOUNT, each step's tiles of the loads that a workgroup's threads
// share copied into local memory by the workgroup. What it does to a kernel, where it is refused, and
// what the staging pass makes of a matmul; its values on every device with workgroups:
// OnDevice.StagedMatmulEqualsTheReference.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/error.h"
#include "core/opt/apply_opt.h"
#include "core/opt/heuristic.h"
#include "tests/kernel_testing.h"

namespace tr {
namespace {

const Target kGpu{.gpu = true, .local_memory = 48 << 10, .cores = 132, .max_local = 256, .vector_width = 4, .warp_size = 32};

Kernel matmul(int64_t m, int64_t k, int64_t n) {
  return testing::only_kernel(testing::realized_random({m, k}, 1).matmul(testing::realized_random({k, n}, 2)));
}

Kernel with(Kernel k, const std::vector<Opt>& opts, const Target& t) {
  for (const Opt& o : opts) k = apply_opt(k, o, t);
  return k;
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
}

int count(const UOpProgram& p, UOpKind kind) {
  return static_cast<int>(std::count_if(p.uops.begin(), p.uops.end(), [&](const UOp& u) { return u.kind == kind; }));
}

// A matmul's A and B tiles: each in local memory, copied 4 elements at a time (both step 1 element
// along their innermost variable), between two barriers in the reduce loop; the compute reads B's 4
// columns as one vector.
TEST(Stage, AMatmulsTilesGoThroughLocalMemory) {
  const Kernel k = with(matmul(64, 64, 256), {{OptOp::Upcast, 1, 4}, {OptOp::Upcast, 0, 4}, {OptOp::Stage, 4, 8},
                                               {OptOp::Local, 2, 16}, {OptOp::Local, 0, 4}}, kGpu);
  const UOpProgram p = codegen(k, kGpu, "r_staged");
  std::vector<int64_t> sizes;
  for (const UOp& u : p.uops)
    if (u.kind == UOpKind::DefineLocal) sizes.push_back(u.size);
  // A: 4 threads x 4 rows by 8 steps; B: 8 steps by 16 threads x 4 columns
  EXPECT_EQ(sizes, (std::vector<int64_t>{128, 512}));
  int in_loop = 0, depth = 0, vector_copies = 0, vector_reads = 0;
  for (const UOp& u : p.uops) {
    depth += u.kind == UOpKind::Range ? 1 : u.kind == UOpKind::EndRange ? -1 : 0;
    in_loop += u.kind == UOpKind::Barrier && depth > 0;
    const auto local = [&](int buf) { return p.uops[static_cast<size_t>(buf)].kind == UOpKind::DefineLocal; };
    vector_copies += u.kind == UOpKind::Store && local(u.srcs[0]) && p.uops[static_cast<size_t>(u.srcs[2])].vec == 4;
    vector_reads += u.kind == UOpKind::Load && local(u.srcs[0]) && u.vec == 4;
  }
  EXPECT_EQ(in_loop, 2);
  EXPECT_EQ(vector_copies, 1 + 2);  // 128 / 4 and 512 / 4 elements by 64 threads
  EXPECT_EQ(vector_reads, 8);       // B's 4 columns at each of 8 steps
}

// A load that every thread reads differently has no tile to share: a row sum's rows stay in global
// memory (nothing staged, and the kernel is the unrolled one).
TEST(Stage, LoadsNoTwoThreadsShareStayInGlobalMemory) {
  const Kernel k = testing::only_kernel(testing::realized_random({64, 64}, 3).sum(std::vector<int>{1}));
  const Kernel staged = with(k, {{OptOp::Stage, 1, 8}, {OptOp::Local, 0, 16}}, kGpu);
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
