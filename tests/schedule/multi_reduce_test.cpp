// Several reduces in one kernel (README "Several reduces in one kernel"): how many times the kernel
// walks each row, that each walk is a loop of its own (never nested in another, so no reduce is
// redone per element), which opts such a kernel takes, and its values on every device.
#include <gtest/gtest.h>

#include <algorithm>

#include <random>
#include <string>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/runtime/device.h"
#include "core/kernel/kernel.h"
#include "core/opt/apply_opt.h"
#include "core/opt/heuristic.h"
#include "core/render/render.h"
#include "core/schedule/row_fits.h"
#include "core/schedule/schedule.h"
#include "tests/kernel_testing.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

const Target kAvx2 = cpu_target(Isa::Avx2, 4, {});
const Target kGpu{.gpu = true, .local_memory = 48 << 10, .cores = 132, .max_local = 256, .vector_width = 4,
                  .warp_size = 32};

std::string reasons_of(const Tensor& y) {
  std::string out;
  for (const ScheduleItem& i : create_schedule({base_of(y.node())})) out += "\n  " + i.reason;
  return out;
}

struct Walks {
  int loops = 0;        // reduce RANGEs (the walks of the rows)
  int deepest = 0;      // the most of them open at once
  int accumulators = 0;
};

Walks walks_of(const UOpProgram& p) {
  Walks w;
  std::vector<bool> is_row_loop;
  int open = 0;
  for (const UOp& u : p.uops) {
    is_row_loop.push_back(u.kind == UOpKind::Range && u.range == RangeKind::Reduce);
    if (is_row_loop.back()) {
      w.loops++;
      w.deepest = std::max(w.deepest, ++open);
    }
    if (u.kind == UOpKind::EndRange && is_row_loop[u.srcs[0]]) open--;
    w.accumulators += u.kind == UOpKind::DefineAcc;
  }
  return w;
}

TEST(RowWalks, SoftmaxWalksEachRowThreeTimesEachInALoopOfItsOwn) {
  const Kernel k = only_kernel(realized_random({8, 16}, 1).softmax());
  EXPECT_EQ(k.row_passes, 3);
  for (const Target& target : {kAvx2, kGpu}) {
    const Walks w = walks_of(codegen(k, target, "softmax"));
    EXPECT_EQ(w.loops, 3) << "the max, the sum of exps, the output";
    EXPECT_EQ(w.deepest, 1) << "no walk inside another";
    EXPECT_EQ(w.accumulators, 2);
  }
}

TEST(RowWalks, VarWalksTwiceAndStoresOutsideTheWalks) {
  const Kernel k = only_kernel(realized_random({8, 16}, 2).var(std::vector<int>{1}));
  EXPECT_EQ(k.row_passes, 2);
  const UOpProgram p = codegen(k, kAvx2, "var");
  const Walks w = walks_of(p);
  EXPECT_EQ(w.loops, 2);
  EXPECT_EQ(w.deepest, 1);
  int open = 0;
  for (const UOp& u : p.uops) {
    open += u.kind == UOpKind::Range && u.range == RangeKind::Reduce;
    open -= u.kind == UOpKind::EndRange && p.uops[u.srcs[0]].range == RangeKind::Reduce;
    if (u.kind == UOpKind::Store) {
      EXPECT_EQ(open, 0) << "one store per row, after both walks";
    }
  }
}

TEST(RowWalks, ReducesThatReadNoOtherShareOneWalk) {
  const Tensor x = realized_random({8, 16}, 3);
  const Kernel k = only_kernel(x.sum(std::vector<int>{1}).add(x.max(std::vector<int>{1})));
  EXPECT_EQ(k.row_passes, 1);
  const Walks w = walks_of(codegen(k, kAvx2, "sum_max"));
  EXPECT_EQ(w.loops, 1);
  EXPECT_EQ(w.accumulators, 2);
}

TEST(RowWalks, ReducesOfOneWalkThatReadEarlierOnesShareItsLoop) {
  // two softmaxes compared along the same rows: both maxima in walk 0, both sums in walk 1, the
  // largest difference in walk 2; each loop opens once (the LLVM backend names a loop's variable once)
  const Tensor x = realized_random({4, 12}, 7), y = realized_random({4, 12}, 8);
  const Tensor d = x.softmax().sub(y.softmax()).abs().max(std::vector<int>{1});
  const Kernel k = only_kernel(d);
  EXPECT_EQ(k.row_passes, 3);
  const Walks w = walks_of(codegen(k, kAvx2, "two_softmaxes"));
  EXPECT_EQ(w.loops, 3);
  EXPECT_EQ(w.deepest, 1);
  EXPECT_EQ(w.accumulators, 5);
  for (const std::string device : {"CPU", "LLVM", "OPENCL"}) {
    if (!device_status(device).empty()) continue;
    const Tensor on = x.to(device).softmax().sub(y.to(device).softmax()).abs().max(std::vector<int>{1});
    EXPECT_TRUE(matches_reference(on)) << device;
  }
}

// On a CPU each walk of the rows reads them as vectors (the reduce dim unrolled by the target's lanes:
// vector accumulators for the max and the sum, vector stores for the output); on a GPU the opts split
// only the rows. The GPU's program renders for every backend, the CPU's for the host ones.
TEST(RowWalks, DefaultOptsReadRowsAsVectorsOnACpuAndAWorkgroupWalksEachRowOnAGpu) {
  const Kernel k = only_kernel(realized_random({256, 1024}, 4).softmax());
  const Kernel cpu = default_opts(k, kAvx2);
  EXPECT_EQ(cpu.opts, (std::vector<Opt>{{OptOp::Unroll, 1, 8}, {OptOp::Thread, 0, 4}}));
  const UOpProgram p = codegen(cpu, kAvx2, "softmax");
  int vector_accs = 0, vector_stores = 0;
  for (const UOp& u : p.uops) {
    vector_accs += u.kind == UOpKind::DefineAcc && u.vec == 8;
    vector_stores += u.kind == UOpKind::Store && p.uops[u.srcs[2]].vec == 8;
  }
  EXPECT_EQ(vector_accs, 2);
  EXPECT_EQ(vector_stores, 1);
  for (const std::string backend : {"c", "llvm"}) EXPECT_NE(render(backend, p).find("softmax"), std::string::npos);
  // on a GPU a workgroup of as many threads as it holds (256) splits every walk of a row of 1024
  const Kernel gpu = default_opts(k, kGpu);
  EXPECT_EQ(gpu.opts, (std::vector<Opt>{{OptOp::Group, 1, 256}}));
  const UOpProgram g = codegen(gpu, kGpu, "softmax");
  // each of the two reduces combines its partials through local memory of its own, after one barrier
  EXPECT_EQ(std::count_if(g.uops.begin(), g.uops.end(), [](const UOp& u) { return u.kind == UOpKind::DefineLocal; }), 2);
  EXPECT_EQ(std::count_if(g.uops.begin(), g.uops.end(), [](const UOp& u) { return u.kind == UOpKind::Barrier; }), 2);
  for (const std::string& backend : backends()) EXPECT_NE(render(backend, g).find("softmax"), std::string::npos);
}

TEST(RowWalks, OptsThatWouldSplitARowAreRefusedWithTheReason) {
  const Kernel k = only_kernel(realized_random({16, 64}, 5).softmax());
  ASSERT_EQ(k.dims.size(), 2u);
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Upcast, 0, 4}, kAvx2); }, "opt",
                     "walks its rows 3 times (reduces that read each other's results, or a store over the rows); only "
                     "THREAD, LOCAL and PADTO of an output dim, UNROLL and GROUP apply to it"));
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Padto, 1, 48}, kGpu); }, "opt", "walks its rows 3 times"));
  EXPECT_NO_THROW(apply_opt(k, {OptOp::Group, 1, 16}, kGpu));
  EXPECT_NO_THROW(apply_opt(k, {OptOp::Thread, 0, 4}, kAvx2));
  EXPECT_NO_THROW(apply_opt(k, {OptOp::Unroll, 1, 4}, kAvx2));
  EXPECT_NO_THROW(apply_opt(k, {OptOp::Local, 0, 16}, kGpu));
}

// Rows that the target's lanes divide, with the default opts on every host device: the reference's values.
TEST(RowWalks, RowsReadAsVectorsMatchTheReference) {
  for (const std::string device : {"CPU", "LLVM", "OPENCL"}) {
    if (!device_status(device).empty()) continue;
    const ScopedOpts scoped(Opts::Default);
    for (const Shape& s : std::vector<Shape>{{16, 256}, {5, 48}, {3, 2048}}) {
      const Tensor x = realized_random(s, 9, device);
      for (const Tensor& y : {x.softmax(), x.log_softmax(), x.layernorm(), x.var(std::vector<int>{1})})
        EXPECT_TRUE(matches_reference(y)) << device << " " << s[0] << "x" << s[1];
    }
  }
}

TEST(RowWalks, ValuesMatchTheReferenceOnEveryDeviceWithDefaultOptsAndNone) {
  for (const std::string device : {"CPU", "LLVM", "OPENCL"}) {
    if (!device_status(device).empty()) continue;
    for (const Opts opts : {Opts::Default, Opts::Noopt}) {
      const ScopedOpts scoped(opts);
      const Tensor x = realized_random({33, 70}, 6, device);
      // each with the length of its rows
      const std::vector<std::pair<Tensor, int>> ys{
          {x.softmax(), 70}, {x.log_softmax(0), 33}, {x.logsumexp(std::vector<int>{1}), 70}, {x.layernorm(), 70},
          {x.var(std::vector<int>{0}), 33}, {x.std(), 33 * 70}, {x.sub(x.mean(std::vector<int>{1}, true)), 70}};
      // one kernel where the row fits the device (core/schedule/row_fits.h); a GPU keeps longer rows apart. Counted
      // before any runs: a reduce realized by one (softmax's max) is loaded by the next (logsumexp).
      for (const auto& [y, row] : ys) {
        const bool fits = !row_too_long(tr::device(device).target(), row, DType::Float32);
        EXPECT_EQ(count_kernels({y}) == 1, fits) << device << " row " << row << ": " << reasons_of(y);
      }
      for (const auto& [y, row] : ys) EXPECT_TRUE(matches_reference(y)) << device << " row " << row;
    }
  }
}

}  // namespace
}  // namespace tr
