// The default opts of reduces that are not matmuls, read from hand-built targets: a column sum reads
// neighbouring outputs' elements as vectors as wide as the target's registers, 8 of them side by side;
// a row sum accumulates vectors as wide along the row; on a GPU the workgroup's threads split each
// reduce (GROUP), but not a matmul's.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/runtime/device.h"
#include "core/kernel/kernel.h"
#include "core/opt/apply_opt.h"
#include "core/opt/heuristic.h"
#include "core/schedule/schedule.h"
#include "tests/device_run.h"
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

// A long full reduce on the CPU: its cores each reduce a block of it, leave their partial results in
// memory they share, meet at one barrier and combine them, in one kernel (THREAD of the reduce dim).
TEST(FullSum, CoresSplitTheReduceAndCombineTheirPartials) {
  const Kernel k = only_kernel(realized_random({1 << 18}, 13).sum());
  for (const int cores : {2, 4, 16}) {
    const Target t = cpu_target(Isa::Avx2, cores, {});
    const Kernel opted = default_opts(k, t);
    ASSERT_FALSE(opted.opts.empty()) << cores;
    EXPECT_EQ(opted.opts.back(), (Opt{OptOp::Thread, 0, cores}));
    const UOpProgram p = codegen(opted, t, "sum");
    EXPECT_EQ(p.dims.global[0], cores);
    EXPECT_EQ(core_locals(p).size(), 4u) << "an accumulator of the target's lanes per unrolled piece";
    const auto barriers = std::count_if(p.uops.begin(), p.uops.end(), [](const UOp& u) {
      return u.kind == UOpKind::Barrier && u.launch == LaunchKind::Core;
    });
    EXPECT_EQ(barriers, 1) << print_uops(p.uops);
  }
}

TEST(FullSum, IsOneKernelOnTheCpuWithTheReferencesValues) {
  const ScopedOpts opts(Opts::Default);
  for (const std::string device : {"CPU", "LLVM"}) {
    const Tensor x = realized_random({1 << 20}, 14, device);
    EXPECT_EQ(create_schedule({base_of(x.sum().node())}).size(), 1u) << device;
    // the reference sums in one float32 accumulator, which drifts over 2^20 values: float64 is exact here
    const Tensor wide = x.cast(DType::Float64);
    EXPECT_TRUE(close(scalar(x.sum()), scalar(wide.sum()), tolerance_for(DType::Float32))) << device;
    EXPECT_TRUE(close(scalar(x.mul(x).sum()), scalar(wide.mul(wide).sum()), tolerance_for(DType::Float32))) << device;
    EXPECT_TRUE(matches_reference(x.max())) << device;
    EXPECT_EQ(scalar(Tensor::ones({1 << 24}, DType::Float32, device).sum()), double(1 << 24)) << device;
  }
}

const Target kGpu{.gpu = true, .local_memory = 48 << 10, .cores = 132, .max_local = 1024, .vector_width = 4};

std::vector<Opt> group_opts(const Kernel& k) {
  std::vector<Opt> out;
  for (const Opt& o : default_opts(k, kGpu).opts)
    if (o.op == OptOp::Group) out.push_back(o);
  return out;
}

TEST(GpuReduce, WorkgroupThreadsSplitEachRowAndColumnSum) {
  const Tensor x = realized_random({512, 1024}, 7);
  // along memory as many threads as the workgroup holds of 32; down columns 8
  for (const auto& [axis, amount] : std::vector<std::pair<int, int64_t>>{{1, 32}, {0, 8}}) {
    const std::vector<Opt> g = group_opts(only_kernel(x.sum(std::vector<int>{axis})));
    ASSERT_EQ(g.size(), 1U) << axis;
    EXPECT_EQ(g[0].amount, amount) << axis;
  }
  // a whole reduce of 64: 32 threads of 2 each
  EXPECT_EQ(group_opts(only_kernel(realized_random({64}, 8).sum())).size(), 1U);
  // a matmul keeps its register tile, each thread its own reduce
  const Tensor a = realized_random({256, 256}, 9), b = realized_random({256, 256}, 10);
  EXPECT_TRUE(group_opts(only_kernel(a.matmul(b))).empty());
  // rows too short to share
  EXPECT_TRUE(group_opts(only_kernel(realized_random({512, 12}, 11).sum(std::vector<int>{1}))).empty());
}

TEST(GpuReduce, ValuesMatchTheReferenceOnOpenCl) {
  if (const std::string why = device_status("OPENCL"); !why.empty()) GTEST_SKIP() << "OPENCL cannot open: " << why;
  const ScopedOpts opts(Opts::Default);
  for (const Shape& s : std::vector<Shape>{{64, 1024}, {1024, 64}, {3, 4096}}) {
    const Tensor x = realized_random(s, 12).to("OPENCL");
    for (const int axis : {0, 1}) {
      // a sum of up to 4096 values in another order: float32's rounding of each partial, about n * 2^-24
      EXPECT_TRUE(matches_reference(x.sum(std::vector<int>{axis}), Tolerance{1e-4, 1e-4})) << s[0] << "x" << s[1] << " " << axis;
      EXPECT_TRUE(matches_reference(x.max(std::vector<int>{axis}))) << s[0] << "x" << s[1] << " " << axis;
    }
  }
}

TEST(GpuReduce, AWorkgroupRunOneThreadAfterAnotherSplitsNoReduce) {
  Target serial = kGpu;
  serial.workgroup_in_parallel = false;
  const Tensor x = realized_random({512, 1024}, 7);
  for (const Tensor& r : {x.sum(std::vector<int>{1}), x.sum(std::vector<int>{0}), x.softmax(1), realized_random({64}, 8).sum()})
    for (const Opt& o : default_opts(only_kernel(r), serial).opts) EXPECT_NE(o.op, OptOp::Group) << o.str();
}

// PoCL's defaults split no reduce over a workgroup (above); the GROUP kernels that a GPU's OpenCL driver
// gets still run there, equal to the reference.
TEST(GpuReduce, AGpusGroupKernelsMatchTheReferenceOnOpenCl) {
  if (const std::string why = device_status("OPENCL"); !why.empty()) GTEST_SKIP() << "OPENCL cannot open: " << why;
  Device& dev = device("OPENCL");
  Target gpu = dev.target();
  gpu.workgroup_in_parallel = true;
  for (const Shape& s : std::vector<Shape>{{64, 1024}, {1024, 64}, {3, 4096}}) {
    const Tensor x = realized_random(s, 12);
    const std::vector<double> in = values(x);
    for (const int axis : {0, 1})
      for (const Tensor& r : {x.sum(std::vector<int>{axis}), x.max(std::vector<int>{axis})}) {
        const Kernel k = default_opts(only_kernel(r), gpu);
        const bool grouped = std::any_of(k.opts.begin(), k.opts.end(), [](const Opt& o) { return o.op == OptOp::Group; });
        EXPECT_TRUE(grouped || s[static_cast<size_t>(axis)] < 16) << s[0] << "x" << s[1] << " " << axis;
        const int64_t n = prod(r.shape());
        const testing::Bytes out = testing::run_on(dev, codegen(k, gpu, "grouped"),
                                                   {bytes(std::vector<float>(static_cast<size_t>(n), -1)), bytes(std::vector<float>(in.begin(), in.end()))});
        EXPECT_TRUE(all_close(typed_values(DType::Float32, out[0]), values(reference_eval(r.node())), Tolerance{1e-4, 1e-4}))
            << s[0] << "x" << s[1] << " " << axis;
      }
  }
}

}  // namespace
}  // namespace tr
