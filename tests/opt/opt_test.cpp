// Opts: the table that drives apply_opt and the parser, PADTO's values against the reference
// evaluator and its refusals, the default opts following the target, and the target's own facts.
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
#include "core/opt/opt_table.h"
#include "core/reference/reference.h"
#include "core/render/render.h"
#include "core/schedule/schedule.h"
#include "tests/kernel_testing.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

const Target kAvx2 = cpu_target(Isa::Avx2, 4, {});
const Target kAvx512 = cpu_target(Isa::Avx512, 4, {});
const Target kGpu{.gpu = true, .local_memory = 48 << 10, .cores = 132, .max_local = 256, .vector_width = 4,
                  .warp_size = 32};

// The one kernel that computes x (its inputs realized first).
ScheduleItem only_kernel(const Tensor& x) {
  const std::vector<ScheduleItem> items = create_schedule({base_of(x.node())});
  EXPECT_EQ(items.size(), 1u);
  return items.back();
}

Tensor realized(std::mt19937_64& rng, const Shape& shape) {
  Tensor t = tensor(random_values(rng, prod(shape), DType::Float32, -1, 1), shape);
  t.realize();
  return t;
}

// Runs x's kernel on the CPU with exactly these opts and compares its values with the reference.
::testing::AssertionResult matches_reference_with(const Tensor& x, const std::vector<Opt>& opts) {
  const ScheduleItem item = only_kernel(x);
  Device& dev = device("CPU");
  Kernel k = Kernel::from_ast(item.ast);
  for (const Opt& o : opts) k = apply_opt(k, o, dev.target());
  const UOpProgram p = codegen(k, dev.target(), "opt_test");
  bool cached = false;
  const std::unique_ptr<Program> program = dev.compile(p, render(dev.backend(), p), cached);
  const LazyRef& out = item.outputs[0];
  const BufferRef result = dev.alloc(out->dtype, prod(out->shape));
  std::vector<const Buffer*> bufs{result.get()};
  for (const LazyRef& in : item.inputs) bufs.push_back(in->buffer.get());
  program->run(bufs, p.dims, {});
  HostData host(out->dtype, prod(out->shape));
  dev.copyout(host.bytes.data(), *result);
  return all_close(values(host), values(reference_eval(out)), tolerance_for(out->dtype));
}

std::vector<Opt> without_padto(std::vector<Opt> opts) {
  std::erase_if(opts, [](const Opt& o) { return o.op == OptOp::Padto; });
  return opts;
}

std::string opts_str(const std::vector<Opt>& opts) {
  std::string out;
  for (const Opt& o : opts) out += o.str() + " ";
  return out;
}

// ---- the table ------------------------------------------------------------------------------

TEST(OptTable, EveryOpHasOneRowAndItsNameParsesBack) {
  for (const OptOp op : {OptOp::Upcast, OptOp::Unroll, OptOp::Local, OptOp::Group, OptOp::Thread, OptOp::Padto}) {
    EXPECT_EQ(std::count_if(opt_table().begin(), opt_table().end(), [&](const OptInfo& o) { return o.op == op; }), 1);
    EXPECT_EQ(parse_opt(opt_name(op)), op) << opt_name(op);
    EXPECT_EQ(opt_info(op).op, op);
    EXPECT_FALSE(opt_info(op).help.empty());
  }
  EXPECT_EQ(parse_opt("FOO"), std::nullopt);
  EXPECT_EQ(parse_opt("upcast"), std::nullopt);  // `:opt` upper-cases what the user types first
  EXPECT_EQ(opt_names(), "UPCAST, UNROLL, LOCAL, GROUP, THREAD, PADTO, TC, STAGE, DOUBLE, BLOCK");
  EXPECT_EQ((Opt{OptOp::Padto, 1, 16}).str(), "PADTO(1, 16)");
}

// Each opt applies to exactly the dim roles its row names, and the new piece takes the row's role.
TEST(OptTable, DrivesApplyOpt) {
  std::mt19937_64 rng(1);
  const Kernel k = Kernel::from_ast(only_kernel(realized(rng, {6, 8}).sum(std::vector<int>{1})).ast);
  ASSERT_EQ(k.dims.size(), 2u);
  ASSERT_EQ(k.dims[0].role, DimRole::Global);
  ASSERT_EQ(k.dims[1].role, DimRole::Reduce);
  for (const OptInfo& info : opt_table()) {
    Target target = info.needs == OptNeeds::Nothing || info.needs == OptNeeds::CpuCores ? kAvx512 : kGpu;
    if (info.needs == OptNeeds::MatrixUnits) target.matrix_units = cuda_matrix_units(9, 0);
    ASSERT_TRUE(target_has(target, info.needs)) << info.name;
    for (int d = 0; d < 2; d++) {
      // 5 divides neither dim (PADTO pads it); 2 divides both
      const Opt opt{info.op, d, info.gives ? 2 : 5};
      const bool fits = std::find(info.takes.begin(), info.takes.end(), k.dims[d].role) != info.takes.end();
      if (!fits) {
        EXPECT_TRUE(throws([&] { apply_opt(k, opt, target); }, "opt", "needs a")) << opt.str();
        continue;
      }
      // TC takes a sum of half products only (tests/opt/tensor_core_test.cpp)
      if (info.op == OptOp::Tc) {
        EXPECT_TRUE(throws([&] { apply_opt(k, {info.op, d, 8}, target); }, "opt", "sums products of two float16")) << opt.str();
        continue;
      }
      // DOUBLE splits nothing: it gives STAGE's tiles two halves (tests/codegen/stage_test.cpp)
      if (info.op == OptOp::Double) {
        EXPECT_TRUE(throws([&] { apply_opt(k, opt, target); }, "opt", "the kernel has none")) << opt.str();
        const Kernel staged = apply_opt(k, {OptOp::Stage, d, 2}, target);
        EXPECT_TRUE(apply_opt(staged, {info.op, d, 2}, target).stage_halves) << opt.str();
        continue;
      }
      // BLOCK's outer piece, the blocks, is the outermost dim: the loop around every other
      if (info.op == OptOp::Block) {
        const Kernel out = apply_opt(k, opt, target);
        ASSERT_EQ(out.dims.size(), 3u);
        EXPECT_EQ(out.dims[0].role, DimRole::Block);
        EXPECT_EQ(out.dims[0].size, k.dims[d].size / 2);
        EXPECT_EQ(out.dims[d + 1].role, k.dims[d].role);
        EXPECT_EQ(out.dims[d + 1].size, 2);
        continue;
      }
      if (info.op == OptOp::Thread && k.dims[d].role == DimRole::Reduce) {
        EXPECT_TRUE(throws([&] { apply_opt(k, opt, target); }, "opt", "combine one output at a time")) << opt.str();
        continue;
      }
      const Kernel out = apply_opt(k, opt, target);
      EXPECT_EQ(out.opts.back().str(), opt.str());
      if (!info.gives) {
        EXPECT_EQ(out.dims[d].size, 10) << opt.str();
        EXPECT_EQ(out.full_shape[out.dims[d].axis], 10) << opt.str();
        continue;
      }
      ASSERT_EQ(out.dims.size(), 3u) << opt.str();
      const Dim& piece = out.dims[info.gives_outer ? d : d + 1];
      EXPECT_EQ(piece.role, *info.gives) << opt.str();
      EXPECT_EQ(piece.size, 2) << opt.str();
    }
  }
}

// Which opts combine is the table's (OptInfo::conflicts, requires_, rows_again): apply_opt refuses an
// opt on a kernel that has what one of its rules names, in that rule's words.
TEST(OptTable, OwnsWhichOptsCombine) {
  std::mt19937_64 rng(1);
  const Kernel k = Kernel::from_ast(only_kernel(realized(rng, {16, 64}).sum(std::vector<int>{1})).ast);
  const auto rule = [](OptOp op, KernelHas with) {
    for (const OptRule& r : opt_info(op).conflicts)
      if (r.with == with) return std::string(r.why);
    for (const OptRule& r : opt_info(op).requires_)
      if (r.with == with) return std::string(r.why);
    ADD_FAILURE() << opt_name(op) << " has no rule about " << kernel_has_name(with);
    return std::string("?");
  };
  const auto refused_for = [&](const Kernel& kernel, const Opt& opt, const Target& t, KernelHas with) {
    EXPECT_TRUE(throws([&] { apply_opt(kernel, opt, t); }, "opt", rule(opt.op, with))) << opt.str();
  };
  // CPU: THREAD, then THREAD again; a reduce in BLOCKs, then THREAD of it; the reduce's BLOCK twice; an
  // output dim's BLOCK after the reduce's (panels of the output), then any BLOCK
  const Kernel threaded = apply_opt(k, {OptOp::Thread, 0, 2}, kAvx512);
  EXPECT_TRUE(kernel_has(threaded, KernelHas::Threads));
  refused_for(threaded, {OptOp::Thread, 1, 2}, kAvx512, KernelHas::Threads);
  const Kernel blocked = apply_opt(k, {OptOp::Block, 1, 8}, kAvx512);
  EXPECT_TRUE(kernel_has(blocked, KernelHas::ReduceInBlocks));
  refused_for(blocked, {OptOp::Thread, 2, 2}, kAvx512, KernelHas::ReduceInBlocks);
  refused_for(blocked, {OptOp::Block, 2, 2}, kAvx512, KernelHas::ReduceInBlocks);
  const Kernel panels = apply_opt(blocked, {OptOp::Block, 1, 2}, kAvx512);
  EXPECT_TRUE(kernel_has(panels, KernelHas::OutputInBlocks));
  refused_for(panels, {OptOp::Block, 3, 2}, kAvx512, KernelHas::OutputInBlocks);
  // GPU: GROUP then STAGE, STAGE then GROUP, DOUBLE without STAGE
  const Kernel grouped = apply_opt(k, {OptOp::Group, 1, 8}, kGpu);
  EXPECT_TRUE(kernel_has(grouped, KernelHas::Grouped));
  refused_for(grouped, {OptOp::Stage, 1, 2}, kGpu, KernelHas::Grouped);
  const Kernel staged = apply_opt(k, {OptOp::Stage, 1, 4}, kGpu);
  EXPECT_TRUE(kernel_has(staged, KernelHas::Staged));
  refused_for(staged, {OptOp::Group, 1, 4}, kGpu, KernelHas::Staged);
  refused_for(k, {OptOp::Double, 1, 2}, kGpu, KernelHas::Staged);
  // a kernel that walks its rows again takes no UPCAST (RowsAgain::Never)
  const Kernel softmax = Kernel::from_ast(only_kernel(realized(rng, {16, 64}).softmax()).ast);
  ASSERT_TRUE(softmax.walks_rows_again());
  EXPECT_EQ(opt_info(OptOp::Upcast).rows_again, RowsAgain::Never);
  EXPECT_TRUE(throws([&] { apply_opt(softmax, {OptOp::Upcast, 0, 2}, kAvx512); }, "opt", "walks its rows"));
}

TEST(OptTable, RefusesWhatTheTargetLacks) {
  std::mt19937_64 rng(2);
  const Kernel k = Kernel::from_ast(only_kernel(realized(rng, {64, 64}).sum(std::vector<int>{1})).ast);
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Local, 0, 4}, kAvx512); }, "opt", "LOCAL needs workgroups"));
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Group, 1, 4}, kAvx512); }, "opt", "GROUP needs workgroups"));
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Thread, 0, 4}, kGpu); }, "opt", "THREAD needs a CPU"));
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Tc, 1, 16}, kGpu); }, "opt", "TC needs a GPU with matrix units"));
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Thread, 0, 4}, cpu_target(Isa::Avx2, 1, {})); }, "opt",
                     "THREAD needs a CPU with several cores"));
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Upcast, 0, 3}, kAvx512); }, "opt", "divide the dim's size 64"));
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Upcast, 2, 2}, kAvx512); }, "opt", "the kernel has dims 0..1"));
}

// THREAD of a reduce dim: the cores each reduce one block and combine their partials, all at once, one
// output at a time: at most the target's cores, and no output dim left as a loop around them.
TEST(OptTable, ThreadOfAReduceNeedsItsOutputsUpcastAndAtMostTheCores) {
  std::mt19937_64 rng(3);
  const Kernel full = Kernel::from_ast(only_kernel(realized(rng, {64, 64}).sum()).ast);
  const Target cores4 = cpu_target(Isa::Avx512, 4, {});
  const Kernel out = apply_opt(full, {OptOp::Thread, 0, 4}, cores4);
  ASSERT_EQ(out.dims.size(), 2u);
  EXPECT_EQ(out.dims[0].role, DimRole::Thread);
  EXPECT_EQ(out.dims[0].size, 4);
  EXPECT_EQ(out.dims[1].role, DimRole::Reduce);
  EXPECT_TRUE(throws([&] { apply_opt(full, {OptOp::Thread, 0, 8}, cores4); }, "opt", "the CPU has 4"));
  Target one_by_one = cores4;
  one_by_one.cores_combine = false;
  EXPECT_TRUE(throws([&] { apply_opt(full, {OptOp::Thread, 0, 4}, one_by_one); }, "opt", "one by one"));
  const Kernel rows = Kernel::from_ast(only_kernel(realized(rng, {4, 64}).sum(std::vector<int>{1})).ast);
  EXPECT_TRUE(throws([&] { apply_opt(rows, {OptOp::Thread, 1, 4}, cores4); }, "opt", "dim 0 is a loop"));
  const Kernel upcast = apply_opt(rows, {OptOp::Upcast, 0, 4}, cores4);
  EXPECT_EQ(apply_opt(upcast, {OptOp::Thread, 1, 4}, cores4).dims[1].role, DimRole::Thread);
}

// A workgroup the device would refuse at launch (more threads than it allows, in all or on an axis)
// is refused by the opt that makes it, whoever asks: the default opts, BEAM or `:opt`.
TEST(OptTable, RefusesWorkgroupsPastTheDeviceLimits) {
  std::mt19937_64 rng(3);
  const Kernel k = Kernel::from_ast(only_kernel(realized(rng, {64, 4096}).sum(std::vector<int>{1})).ast);
  const Kernel local = apply_opt(k, {OptOp::Local, 0, 32}, kGpu);  // 32 threads on x
  EXPECT_EQ(apply_opt(local, {OptOp::Group, 2, 32}, kGpu).opts.size(), 2u);  // 1024: the limit
  EXPECT_TRUE(throws([&] { apply_opt(local, {OptOp::Group, 2, 64}, kGpu); }, "opt",
                     "GROUP(2, 64): a workgroup of 2048 threads; the device allows 1024"));
  Target narrow = kGpu;
  narrow.max_threads_per_axis = {16, 1024, 64};
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Local, 0, 32}, narrow); }, "opt",
                     "LOCAL(0, 32): 32 threads of a workgroup on launch axis x; the device allows 16"));
}

// ---- PADTO ----------------------------------------------------------------------------------

TEST(Padto, ReduceDimsOfSumsAndMatmulsMatchTheReference) {
  std::mt19937_64 rng(3);
  const Tensor a = realized(rng, {13, 17}), b = realized(rng, {17, 19}), v = realized(rng, {17});
  const Tensor sum_rows = a.sum(std::vector<int>{1});
  EXPECT_TRUE(matches_reference_with(sum_rows, {{OptOp::Padto, 1, 4}, {OptOp::Unroll, 1, 4}}));
  EXPECT_TRUE(matches_reference_with(sum_rows, {{OptOp::Padto, 1, 16}, {OptOp::Unroll, 1, 16}}));
  // a sum of products and of a shifted relu: each is 0 where the loads read 0
  EXPECT_TRUE(matches_reference_with(a.matmul(b), {{OptOp::Padto, 2, 4}, {OptOp::Unroll, 2, 4}}));
  EXPECT_TRUE(matches_reference_with(a.mul(v).relu().sum(std::vector<int>{1}), {{OptOp::Padto, 1, 8}, {OptOp::Unroll, 1, 8}}));
  EXPECT_TRUE(matches_reference_with(v.sum(), {{OptOp::Padto, 0, 5}, {OptOp::Unroll, 0, 5}}));
  // a constant is padded like a load, so a + 1 is 0 where the padding is
  EXPECT_TRUE(matches_reference_with(a.add(Tensor::full({13, 17}, 1.0)).sum(std::vector<int>{1}), {{OptOp::Padto, 1, 4}, {OptOp::Unroll, 1, 4}}));
}

// Padded output positions are computed and must not be stored: the STORE is gated by its mask.
TEST(Padto, OutputDimsMatchTheReference) {
  std::mt19937_64 rng(4);
  const Tensor a = realized(rng, {13, 17}), b = realized(rng, {17, 19});
  EXPECT_TRUE(matches_reference_with(a.matmul(b), {{OptOp::Padto, 1, 16}, {OptOp::Upcast, 1, 16}}));
  EXPECT_TRUE(matches_reference_with(a.matmul(b), {{OptOp::Padto, 0, 4}, {OptOp::Padto, 1, 8}, {OptOp::Padto, 2, 4},
                                                   {OptOp::Unroll, 2, 4}, {OptOp::Upcast, 1, 8}, {OptOp::Upcast, 0, 4}}));
  EXPECT_TRUE(matches_reference_with(a.sum(std::vector<int>{1}), {{OptOp::Padto, 0, 16}, {OptOp::Upcast, 0, 4}}));
  EXPECT_TRUE(matches_reference_with(a.add(Tensor::full({13, 17}, 1.0)), {{OptOp::Padto, 0, 8}, {OptOp::Upcast, 0, 8}}));
}

TEST(Padto, RefusesReducesThatThePaddingWouldChange) {
  std::mt19937_64 rng(5);
  const Tensor a = realized(rng, {13, 17});
  const auto padded = [&](const Tensor& x) {
    return [x] { apply_opt(Kernel::from_ast(only_kernel(x).ast), {OptOp::Padto, 1, 4}, kAvx512); };
  };
  EXPECT_TRUE(throws(padded(a.max(std::vector<int>{1})), "opt", "a max reduce would take the padding's zeros in"));
  EXPECT_TRUE(throws(padded(a.prod(std::vector<int>{1})), "opt", "a product reduce"));
  EXPECT_TRUE(throws(padded(a.exp().sum(std::vector<int>{1})), "opt", "the summed value is 1 where the loads read 0"));
}

TEST(Padto, RefusesWhatItCannotPad) {
  std::mt19937_64 rng(6);
  const Kernel k = Kernel::from_ast(only_kernel(realized(rng, {12, 17}).sum(std::vector<int>{1})).ast);
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Padto, 0, 4}, kAvx512); }, "opt", "already a multiple of 4"));
  EXPECT_TRUE(throws([&] { apply_opt(k, {OptOp::Padto, 0, 32}, kAvx512); }, "opt", "would more than double it"));
  const Kernel split = apply_opt(k, {OptOp::Upcast, 0, 2}, kAvx512);
  EXPECT_TRUE(throws([&] { apply_opt(split, {OptOp::Padto, 0, 8}, kAvx512); }, "opt", "apply PADTO first"));
}

// ---- BLOCK ----------------------------------------------------------------------------------

// The blocks are the outermost loop, each block's reduce starts from the partial results of those
// before it (read from the output, where the last one stored them), and the epilogue is stored after
// the last block only: a sum, a max (which must not start from 0), a matmul with relu after it.
TEST(Block, WalksTheReduceInBlocksAroundEveryOutput) {
  std::mt19937_64 rng(21);
  const Tensor a = realized(rng, {24, 64}), b = realized(rng, {64, 40});
  const Tensor y = a.matmul(b).relu();
  const std::vector<Opt> opts{{OptOp::Upcast, 1, 4}, {OptOp::Block, 3, 16}, {OptOp::Unroll, 4, 4}};
  EXPECT_TRUE(matches_reference_with(y, opts));
  Kernel k = Kernel::from_ast(only_kernel(y).ast);
  for (const Opt& o : opts) k = apply_opt(k, o, kAvx512);
  ASSERT_EQ(k.dims.front().role, DimRole::Block);
  EXPECT_EQ(k.dims.front().size, 4);
  const UOpProgram p = codegen(k, kAvx512, "r_blocks");
  const auto first_range = std::find_if(p.uops.begin(), p.uops.end(), [](const UOp& u) { return u.kind == UOpKind::Range; });
  ASSERT_NE(first_range, p.uops.end());
  EXPECT_EQ(first_range->dim, 0);
  // the output is read (the partial results) and written; the relu waits for the last block
  const int loads_of_output = static_cast<int>(std::count_if(p.uops.begin(), p.uops.end(), [&](const UOp& u) {
    return u.kind == UOpKind::Load && p.uops[static_cast<size_t>(u.srcs[0])].buffer == 0;
  }));
  EXPECT_EQ(loads_of_output, 1);  // one vector of the upcast's 4 outputs
  const std::string src = render("c", p);
  EXPECT_NE(src.find("for (int bidx0 = 0; bidx0 < 4; bidx0++) {"), std::string::npos) << src;
  EXPECT_NE(src.find("(bidx0<3)"), std::string::npos) << src;
  EXPECT_TRUE(matches_reference_with(a.sum(std::vector<int>{1}), {{OptOp::Block, 1, 8}}));
  // an epilogue that reads a buffer reads it after the last block
  const Tensor bias = realized(rng, {40});
  EXPECT_TRUE(matches_reference_with(a.matmul(b).add(bias).relu(), opts));
  EXPECT_TRUE(matches_reference_with(a.max(std::vector<int>{1}), {{OptOp::Padto, 0, 16}, {OptOp::Upcast, 0, 4}, {OptOp::Block, 2, 8}}));
  EXPECT_TRUE(matches_reference_with(a.sum(std::vector<int>{0}).mul(Tensor::full({64}, 0.5)), {{OptOp::Block, 1, 4}, {OptOp::Thread, 1, 2}}));
  // an output dim in blocks: only the loops' order changes
  EXPECT_TRUE(matches_reference_with(a.T().contiguous(), {{OptOp::Upcast, 1, 8}, {OptOp::Thread, 0, 2}, {OptOp::Block, 1, 4}}));
}

TEST(Block, RefusesWhatTheOutputCannotHoldBetweenBlocks) {
  std::mt19937_64 rng(22);
  const Tensor a = realized(rng, {16, 32});
  const auto refusal = [](const Tensor& x, const std::vector<Opt>& before, const Opt& opt, const Target& t) {
    Kernel k = Kernel::from_ast(only_kernel(x).ast);
    for (const Opt& o : before) k = apply_opt(k, o, t);
    return testing::opt_refusal(k, opt, t);
  };
  EXPECT_NE(refusal(a.softmax(1), {}, {OptOp::Block, 1, 8}, kAvx512).find("this kernel has several"), std::string::npos);
  EXPECT_NE(refusal(a.cast(DType::Float16).sum(std::vector<int>{1}), {}, {OptOp::Block, 1, 8}, kAvx512)
                .find("which is float16 where the reduce is float32"),
            std::string::npos);
  EXPECT_NE(refusal(a.sum(std::vector<int>{1}), {}, {OptOp::Block, 1, 32}, kAvx512).find("is the whole dim"), std::string::npos);
  EXPECT_NE(refusal(a.sum(std::vector<int>{1}), {{OptOp::Block, 1, 8}}, {OptOp::Block, 2, 4}, kAvx512).find("in blocks already"),
            std::string::npos);
  EXPECT_NE(refusal(a.sum(std::vector<int>{1}), {{OptOp::Block, 0, 8}}, {OptOp::Block, 2, 4}, kAvx512).find("in blocks already"),
            std::string::npos);
  EXPECT_NE(refusal(a.sum(std::vector<int>{1}), {{OptOp::Block, 1, 8}}, {OptOp::Group, 2, 8}, kGpu).find("walked in blocks"),
            std::string::npos);
  EXPECT_NE(refusal(a.sum(std::vector<int>{1}), {{OptOp::Group, 1, 8}}, {OptOp::Block, 1, 2}, kGpu).find("split over threads"),
            std::string::npos);
}

// ---- the default opts -----------------------------------------------------------------------

Kernel matmul_kernel(int64_t n) {
  std::mt19937_64 rng(8);
  return Kernel::from_ast(only_kernel(realized(rng, {n, n}).matmul(realized(rng, {n, n}))).ast);
}

int64_t column_upcast(const Kernel& k) {
  for (const Opt& o : k.opts)
    if (o.op == OptOp::Upcast) return o.amount;
  return 1;
}

// The register tile's columns are one vector register: 8 floats with AVX2, 16 with AVX-512.
TEST(DefaultOpts, FollowTheTargetsVectorWidth) {
  const Kernel k = matmul_kernel(64);
  EXPECT_EQ(column_upcast(default_opts(k, kAvx2)), 8) << opts_str(default_opts(k, kAvx2).opts);
  EXPECT_EQ(column_upcast(default_opts(k, kAvx512)), 16) << opts_str(default_opts(k, kAvx512).opts);
  EXPECT_EQ(column_upcast(default_opts(k, cpu_target(Isa::Sse, 4, {}))), 4);
  // an element-wise kernel keeps as many values in registers as one vector holds
  std::mt19937_64 rng(7);
  const Kernel add = Kernel::from_ast(only_kernel(realized(rng, {64, 64}).add(Tensor::full({64, 64}, 1.0))).ast);
  const auto upcast = [](const Kernel& x) {
    int64_t n = 1;
    for (const Dim& d : x.dims)
      if (d.role == DimRole::Upcast) n *= d.size;
    return n;
  };
  EXPECT_EQ(upcast(default_opts(add, kAvx2)), 8);
  EXPECT_EQ(upcast(default_opts(add, kAvx512)), 16);
  EXPECT_EQ(upcast(default_opts(add, cpu_target(Isa::Sse, 4, {}))), 4);
}

// The matmul's register tile follows each instruction set's registers (Targets built here, never the
// machine's): columns of one vector register, two of them side by side, and as many rows as keep
// every accumulator, the two column vectors and one broadcast value in registers. The sum of products
// accumulates with MULACC as wide as the vectors where the instruction set has a fused multiply-add.
TEST(DefaultOpts, MatmulRegisterTileFillsTheVectorRegisters) {
  const Kernel k = matmul_kernel(256);
  struct Want {
    Target target;
    int64_t lanes, rows;
    bool mulacc;
  };
  for (const Want& w : {Want{cpu_target(Isa::Sse, 2, {}), 4, 4, false}, Want{cpu_target(Isa::Avx2, 2, {}), 8, 4, true},
                        Want{cpu_target(Isa::Avx512, 2, {}), 16, 8, true}}) {
    const RegisterTile tile = cpu_register_tile(w.target);
    EXPECT_EQ(tile.lanes, w.lanes);
    EXPECT_EQ(tile.vectors, 2);
    EXPECT_EQ(tile.rows, w.rows);
    EXPECT_LE(tile.rows * tile.vectors + tile.vectors + 1, isa_vector_registers(w.target.isa));
    const Kernel opted = default_opts(k, w.target);
    std::vector<int64_t> upcasts;
    for (const Opt& o : opted.opts)
      if (o.op == OptOp::Upcast) upcasts.push_back(o.amount);
    EXPECT_EQ(upcasts, (std::vector<int64_t>{w.lanes, 2, w.rows})) << opts_str(opted.opts);
    int accumulators = 0, mulaccs = 0, adds = 0;
    for (const UOp& u : codegen(opted, w.target, "tile").uops) {
      if (u.kind == UOpKind::DefineAcc && u.vec == w.lanes) accumulators++;
      if (u.kind == UOpKind::Alu && u.alu == Op::MulAcc && u.vec == w.lanes) mulaccs++;
      if (u.kind == UOpKind::Alu && u.alu == Op::Add && u.dtype == DType::Float32) adds++;
    }
    // each accumulator takes one step per unrolled element of the reduce
    const int steps = w.mulacc ? mulaccs : adds;
    EXPECT_EQ(accumulators, w.rows * 2) << isa_name(w.target.isa);
    EXPECT_EQ(w.mulacc ? adds : mulaccs, 0) << isa_name(w.target.isa);
    EXPECT_TRUE(steps > 0 && steps % accumulators == 0) << isa_name(w.target.isa) << ": " << steps;
  }
}

// The tile with MULACC, and a fused bias and relu after it, on this machine's CPU: the reference's values.
TEST(DefaultOpts, MatmulTileWithEpilogueMatchesTheReference) {
  std::mt19937_64 rng(11);
  const Tensor a = realized(rng, {96, 80}), w = realized(rng, {80, 72}), b = realized(rng, {72});
  const Tensor y = a.matmul(w).add(b).relu();
  const Kernel k = Kernel::from_ast(only_kernel(y).ast);
  EXPECT_TRUE(matches_reference_with(y, default_opts(k, device("CPU").target()).opts));
}

// BLOCK follows the target's caches. A matmul whose tile rows' steps outgrow L1 walks its reduce in
// blocks whose rows take half of it (8 rows of float32 in 16 KiB: 512 steps; 256 in 8 KiB). Where that
// block's rows of the other operand (2048 floats a step) outgrow L2, the 8-row tile of AVX-512 walks
// the columns in panels around it that take half of L2 (512 steps of 256 columns in 512 KiB: 8 tiles
// of 32 columns), the outermost loop; the 1024 one, whose 1024 steps of 8 rows fill L1 without
// outgrowing it, walks its reduce whole in panels of 128 columns. AVX2's 4-row tile instead shrinks
// the reduce's blocks until whole rows take half of L2 (64 steps). With the block's rows fitting L2,
// blocks of the reduce alone;
// with everything fitting, or where the target does not know its caches, it walks whole. A linear
// layer's bias and relu after it change nothing; a column sum in blocks of 8 rows; a transpose in
// blocks of the dim that walks the input's rows, as many rows (16 a step: AVX-512's square tile) as
// L1 holds a line of each.
TEST(DefaultOpts, BlocksFollowTheTargetsCaches) {
  using Blocks = std::vector<int64_t>;
  const auto blocks = [](const Kernel& k) {
    Blocks b;
    for (const Opt& o : k.opts)
      if (o.op == OptOp::Block) b.push_back(o.amount);
    return b;
  };
  const auto cpu = [](Isa isa, int64_t l1, int64_t l2) { return cpu_target(isa, 2, {.l1d = l1 << 10, .l2 = l2 << 20, .l3 = 32 << 20}); };
  const Target l1_32k = cpu(Isa::Avx512, 32, 1), l1_16k = cpu(Isa::Avx512, 16, 1);
  const Kernel k2048 = matmul_kernel(2048), k1024 = matmul_kernel(1024);
  EXPECT_EQ(blocks(default_opts(k2048, l1_32k)), (Blocks{512, 8})) << opts_str(default_opts(k2048, l1_32k).opts);
  EXPECT_EQ(blocks(default_opts(k2048, cpu(Isa::Avx512, 32, 4))), Blocks{256});
  EXPECT_EQ(blocks(default_opts(k2048, cpu(Isa::Avx512, 32, 16))), Blocks{512});
  EXPECT_EQ(blocks(default_opts(k2048, cpu(Isa::Avx512, 16, 16))), Blocks{256});
  EXPECT_EQ(blocks(default_opts(k2048, cpu(Isa::Avx512, 64, 16))), Blocks{});
  EXPECT_EQ(blocks(default_opts(k2048, kAvx512)), Blocks{});
  EXPECT_EQ(blocks(default_opts(k1024, l1_32k)), Blocks{4});
  EXPECT_EQ(blocks(default_opts(k1024, cpu(Isa::Avx512, 32, 4))), Blocks{});
  EXPECT_EQ(blocks(default_opts(k2048, cpu(Isa::Avx2, 32, 1))), Blocks{64});
  EXPECT_EQ(blocks(default_opts(k2048, cpu(Isa::Avx2, 32, 16))), Blocks{});
  // the panels are the outermost loop, the reduce's blocks inside them, the cores inside both
  const Kernel panels = default_opts(k2048, l1_32k);
  ASSERT_GE(panels.dims.size(), 3u);
  EXPECT_EQ(panels.dims[0].role, DimRole::Block);
  EXPECT_LT(panels.dims[0].axis, panels.first_reduce);
  EXPECT_EQ(panels.dims[1].role, DimRole::Block);
  EXPECT_GE(panels.dims[1].axis, panels.first_reduce);
  EXPECT_EQ(panels.dims[2].role, DimRole::Thread);
  std::mt19937_64 rng(23);
  const Tensor a = realized(rng, {256, 2048}), w = realized(rng, {2048, 256}), bias = realized(rng, {256});
  EXPECT_EQ(blocks(default_opts(Kernel::from_ast(only_kernel(a.matmul(w)).ast), l1_32k)), Blocks{512});
  EXPECT_EQ(blocks(default_opts(Kernel::from_ast(only_kernel(a.matmul(w).add(bias).relu()).ast), l1_32k)), Blocks{512});
  EXPECT_EQ(blocks(default_opts(Kernel::from_ast(only_kernel(w.sum(std::vector<int>{0})).ast), l1_32k)), Blocks{8});
  const Kernel transpose = Kernel::from_ast(only_kernel(realized(rng, {1024, 1024}).T().contiguous()).ast);
  EXPECT_EQ(blocks(default_opts(transpose, l1_32k)), Blocks{32});
  EXPECT_EQ(blocks(default_opts(transpose, l1_16k)), Blocks{16});
}

// The GEMM shapes of scripts/bench/cpu on the development VM's target (AVX-512, 2 cores, L1d 32 KiB, L2
// 1 MiB): the linear layer 512x1024x1024 with its bias and relu gets the 8x32 tile, its rows over the
// cores and panels of 128 columns (its 1024 steps of 8 rows fill L1 without outgrowing it); the tall-skinny GEMM of a convolution
// (100352x576 by 576x64), whose 64 columns of 576 steps fit L2, and the batched matmul (32 of
// 256x256x256), whose batches the cores split, the tile alone.
TEST(DefaultOpts, GemmShapesOfTheBenchmark) {
  const Target vm = cpu_target(Isa::Avx512, 2, {.l1d = 32 << 10, .l2 = 1 << 20, .l3 = 32 << 20});
  const auto zeros = [](const Shape& s) { return Tensor::zeros(s).contiguous().realize(); };
  const auto opts_of = [&](const Tensor& y) { return opts_str(default_opts(Kernel::from_ast(only_kernel(y).ast), vm).opts); };
  EXPECT_EQ(opts_of(zeros({512, 1024}).matmul(zeros({1024, 1024})).add(zeros({1024})).relu()),
            "UPCAST(1, 16) UPCAST(1, 2) UPCAST(0, 8) THREAD(0, 2) BLOCK(3, 4) ");
  EXPECT_EQ(opts_of(zeros({100352, 576}).matmul(zeros({576, 64}))), "UPCAST(1, 16) UPCAST(1, 2) UPCAST(0, 8) THREAD(0, 2) ");
  EXPECT_EQ(opts_of(zeros({32, 256, 256}).matmul(zeros({32, 256, 256}))),
            "UPCAST(2, 16) UPCAST(2, 2) UPCAST(1, 8) THREAD(0, 2) ");
  // An Intel server core's caches (L1d 48 KiB, L2 2 MiB) and 8 cores. The L2 rule once read the rows'
  // axis for the columns' (the rows' split had moved the dim it looked up): the tall-skinny GEMM's
  // 100352 "columns" got blocks of 2 steps, 288 passes over its 25 MiB output, and the linear layer's
  // 512 none, its 4 MiB of weights read whole for every tile of rows.
  const Target intel = cpu_target(Isa::Avx512, 8, {.l1d = 48 << 10, .l2 = 2 << 20, .l3 = 96 << 20});
  const auto intel_opts = [&](const Tensor& y) { return opts_str(default_opts(Kernel::from_ast(only_kernel(y).ast), intel).opts); };
  EXPECT_EQ(intel_opts(zeros({100352, 576}).matmul(zeros({576, 64}))), "UPCAST(1, 16) UPCAST(1, 2) UPCAST(0, 8) THREAD(0, 8) ");
  EXPECT_EQ(intel_opts(zeros({512, 1024}).matmul(zeros({1024, 1024})).add(zeros({1024})).relu()),
            "UPCAST(1, 16) UPCAST(1, 2) UPCAST(0, 8) THREAD(0, 8) BLOCK(3, 8) ");
  EXPECT_EQ(intel_opts(zeros({2048, 2048}).matmul(zeros({2048, 2048}))),
            "UPCAST(1, 16) UPCAST(1, 2) UPCAST(0, 8) THREAD(0, 8) BLOCK(6, 512) BLOCK(4, 16) ");
}

// The values of those shapes, smaller, with the default opts of targets whose caches make them take
// every block: a linear layer in panels of 64 columns around blocks of 64 steps (L1d 4 KiB, L2 32
// KiB), a tall-skinny and a batched matmul, and a convolution (its implicit GEMM) on the CPU's own
// target: the reference's values.
TEST(DefaultOpts, GemmShapesMatchTheReference) {
  std::mt19937_64 rng(24);
  const Target small = cpu_target(Isa::Avx512, 2, {.l1d = 4 << 10, .l2 = 32 << 10});
  const Tensor a = realized(rng, {64, 256}), w = realized(rng, {256, 512}), bias = realized(rng, {512});
  const Tensor linear = a.matmul(w).add(bias).relu();
  const Kernel k = default_opts(Kernel::from_ast(only_kernel(linear).ast), small);
  EXPECT_EQ(opts_str(k.opts), "UPCAST(1, 16) UPCAST(1, 2) UPCAST(0, 8) THREAD(0, 2) BLOCK(6, 64) BLOCK(4, 2) ");
  EXPECT_TRUE(matches_reference_with(linear, k.opts));
  const Target cpu = device("CPU").target();
  const auto own_opts = [&](const Tensor& y) { return default_opts(Kernel::from_ast(only_kernel(y).ast), cpu).opts; };
  const Tensor tall = realized(rng, {392, 576}).matmul(realized(rng, {576, 64}));
  EXPECT_TRUE(matches_reference_with(tall, own_opts(tall)));
  const Tensor batched = realized(rng, {4, 64, 96}).matmul(realized(rng, {4, 96, 80}));
  EXPECT_TRUE(matches_reference_with(batched, own_opts(batched)));
  const Tensor conv = realized(rng, {2, 16, 14, 14}).conv2d(realized(rng, {32, 16, 3, 3}));
  EXPECT_TRUE(matches_reference_with(conv, own_opts(conv)));
}

// A 1000x1000 matmul is tiled as a 1024 one: its dims are padded to the tile, nothing else differs.
TEST(DefaultOpts, OddSizesArePaddedToTheTile) {
  const Kernel k1000 = matmul_kernel(1000), k1024 = matmul_kernel(1024);
  for (const Target& target : {kAvx2, kAvx512, kGpu}) {
    const std::vector<Opt> odd = default_opts(k1000, target).opts, even = default_opts(k1024, target).opts;
    EXPECT_EQ(opts_str(without_padto(odd)), opts_str(even)) << "padded: " << opts_str(odd);
  }
  // AVX-512's 16 columns and a GPU's workgroup of 16 threads of 4 columns do not divide 1000
  EXPECT_GT(default_opts(k1000, kAvx512).opts.size(), default_opts(k1024, kAvx512).opts.size());
  EXPECT_GT(default_opts(k1000, kGpu).opts.size(), default_opts(k1024, kGpu).opts.size());
}

// A transpose: a tile of outputs along the row by a cache line of the transposed load (16 float32,
// 8 float64) along its own dim: a line of outputs too where one vector is a whole line (AVX-512), else
// 8; on a GPU, 16 outputs per thread along the load's dim; the values are the reference's.
TEST(DefaultOpts, ATransposeTilesOutputsByACacheLine) {
  std::mt19937_64 rng(13);
  for (const DType dtype : {DType::Float32, DType::Float64}) {
    const Tensor y = realized(rng, {64, 128}).cast(dtype).realize().T().contiguous();
    const Kernel k = Kernel::from_ast(only_kernel(y).ast);
    const int64_t line = dtype == DType::Float32 ? 16 : 8;
    for (const Target& target : {kAvx2, kAvx512}) {
      const std::vector<Opt> opts = default_opts(k, target).opts;
      ASSERT_GE(opts.size(), 2u) << opts_str(opts);
      EXPECT_EQ(opts[0], (Opt{OptOp::Upcast, 1, target.isa == Isa::Avx512 ? line : 8})) << opts_str(opts);
      EXPECT_EQ(opts[1], (Opt{OptOp::Upcast, 0, line})) << opts_str(opts);
    }
    EXPECT_TRUE(matches_reference_with(y, default_opts(k, device("CPU").target()).opts)) << name(dtype);
  }
  // on a GPU: 16 outputs along the transposed load's dim per thread, the workgroup along the row
  const Kernel k = Kernel::from_ast(only_kernel(realized(rng, {64, 128}).T().contiguous()).ast);
  const std::vector<Opt> gpu = default_opts(k, kGpu).opts;
  ASSERT_GE(gpu.size(), 2u) << opts_str(gpu);
  EXPECT_EQ(gpu[0], (Opt{OptOp::Upcast, 0, 16})) << opts_str(gpu);
  EXPECT_EQ(gpu[1].op, OptOp::Local) << opts_str(gpu);
  EXPECT_EQ(gpu[1].dim, 2) << opts_str(gpu);
  if (device_status("OPENCL").empty()) {
    const ScopedOpts defaults(Opts::Default);
    EXPECT_TRUE(matches_reference(realized(rng, {64, 128}).to("OPENCL").realize().T().contiguous()));
  }
  // a copy that reads in order is not one: one upcast, by the vector's lanes
  const Kernel add = Kernel::from_ast(only_kernel(realized(rng, {64, 128}).add(Tensor::full({64, 128}, 1.0))).ast);
  const std::vector<Opt> plain = default_opts(add, kAvx512).opts;
  EXPECT_EQ(std::count_if(plain.begin(), plain.end(), [](const Opt& o) { return o.op == OptOp::Upcast; }), 1) << opts_str(plain);
}

// The transpose's tile in registers: each lane of the stored vector loads its run along the other
// upcast as one vector, and log2(width) rounds of shuffles transpose the square (AVX-512's 16x16
// float32: 16 loads of 16 lanes, 4 rounds of 16 shuffles; AVX2's 8 outputs by 16: two 8x8 squares,
// 16 loads of 8, 2 x 3 rounds of 8). The stores stream where a vector is a whole line and the output
// (32 KiB) outgrows the last-level cache, and not where it fits, nor with AVX2's half lines, nor where
// the kernel reads its output back (a reduce in blocks).
TEST(DefaultOpts, ATransposeTileIsTransposedInRegistersAndItsLinesStream) {
  std::mt19937_64 rng(14);
  const Kernel k = Kernel::from_ast(only_kernel(realized(rng, {64, 128}).T().contiguous()).ast);
  const CacheSizes small{.l1d = 32 << 10, .l2 = 8 << 10, .l3 = 16 << 10}, large{.l1d = 32 << 10, .l2 = 1 << 20, .l3 = 32 << 20};
  const auto program = [&](const Kernel& kernel, const Target& t) { return codegen(default_opts(kernel, t), t, "t"); };
  const auto count = [](const UOpProgram& p, UOpKind kind, int vec) {
    return std::count_if(p.uops.begin(), p.uops.end(), [&](const UOp& u) { return u.kind == kind && u.vec == vec; });
  };
  const auto streams = [](const UOpProgram& p) {
    return std::count_if(p.uops.begin(), p.uops.end(), [](const UOp& u) { return u.kind == UOpKind::Store && u.streams; });
  };
  const UOpProgram avx512 = program(k, cpu_target(Isa::Avx512, 2, small));
  EXPECT_EQ(count(avx512, UOpKind::Load, 16), 16) << print_uops(avx512.uops);
  EXPECT_EQ(count(avx512, UOpKind::Load, 1), 0);
  EXPECT_EQ(count(avx512, UOpKind::Shuffle, 16), 64);
  EXPECT_EQ(streams(avx512), 16);
  const std::string c = render("c", avx512);
  EXPECT_NE(c.find("stream_store(float16, data0+"), std::string::npos) << c;
  EXPECT_NE(c.find("__builtin_shufflevector("), std::string::npos);
  EXPECT_NE(c.find("  stream_fence();\n}"), std::string::npos);
  EXPECT_EQ(streams(program(k, cpu_target(Isa::Avx512, 2, large))), 0);
  const UOpProgram avx2 = program(k, cpu_target(Isa::Avx2, 2, small));
  EXPECT_EQ(count(avx2, UOpKind::Load, 8), 16) << print_uops(avx2.uops);
  EXPECT_EQ(count(avx2, UOpKind::Shuffle, 8), 48);
  EXPECT_EQ(streams(avx2), 0);
  EXPECT_EQ(render("c", avx2).find("stream_"), std::string::npos);
  Kernel blocked = Kernel::from_ast(only_kernel(realized(rng, {256, 2048}).matmul(realized(rng, {2048, 256}))).ast);
  for (const Opt& o : std::vector<Opt>{{OptOp::Upcast, 1, 16}, {OptOp::Block, 3, 64}})
    blocked = apply_opt(blocked, o, cpu_target(Isa::Avx512, 2, small));
  EXPECT_EQ(streams(codegen(blocked, cpu_target(Isa::Avx512, 2, small), "b")), 0);
}

// ---- the target -----------------------------------------------------------------------------

TEST(Target, InstructionSetFromCpuFeatures) {
  const X86Features avx2{.sse2 = true, .avx2 = true, .fma = true, .f16c = true};
  X86Features avx512 = avx2;
  avx512.avx512f = avx512.avx512vl = avx512.avx512bw = avx512.avx512dq = true;
  EXPECT_EQ(x86_isa(avx512), Isa::Avx512);
  EXPECT_EQ(x86_isa(avx2), Isa::Avx2);
  X86Features phi = avx2;  // Xeon Phi: AVX-512F without VL, BW and DQ
  phi.avx512f = true;
  EXPECT_EQ(x86_isa(phi), Isa::Avx2);
  X86Features no_f16c = avx2;
  no_f16c.f16c = false;
  EXPECT_EQ(x86_isa(no_f16c), Isa::Sse);
  EXPECT_EQ(x86_isa({.sse2 = true}), Isa::Sse);
  EXPECT_EQ(x86_isa({}), Isa::None);
  EXPECT_EQ(isa_float_lanes(Isa::Sse), 4);
  EXPECT_EQ(isa_float_lanes(Isa::Avx2), 8);
  EXPECT_EQ(isa_float_lanes(Isa::Avx512), 16);
  EXPECT_EQ(parse_isa("avx512"), Isa::Avx512);
  EXPECT_EQ(parse_isa("AVX-512"), Isa::Avx512);
  EXPECT_EQ(parse_isa("avx2"), Isa::Avx2);
  EXPECT_EQ(parse_isa("mmx"), std::nullopt);
  // the C renderer's vectors are as wide as the registers
  EXPECT_EQ(kAvx2.vector_width, 8);
  EXPECT_EQ(kAvx512.vector_width, 16);
  EXPECT_EQ(cpu_target(Isa::None, 1, {}).vector_width, 0);
}

TEST(Target, MatrixUnitsFromComputeCapability) {
  EXPECT_TRUE(cuda_matrix_units(6, 1).empty());
  EXPECT_EQ(cuda_matrix_units(7, 5), (std::vector<MatrixUnit>{{16, 8, 8, DType::Float16, DType::Float32}}));
  EXPECT_EQ(cuda_matrix_units(9, 0).front(), (MatrixUnit{16, 8, 16, DType::Float16, DType::Float32}));
}

TEST(Target, PrintsWhatTheDeviceHas) {
  EXPECT_EQ(cpu_target(Isa::Avx2, 8, {.l1d = 32 << 10, .l2 = 1 << 20, .l3 = 0}).str(),
            "  instruction set: AVX2 (8 float32 lanes)\n  cores: 8\n  caches: L1d 32 KiB, L2 1 MiB, L3 unknown\n"
            "  vectors the renderer spells: up to 8 lanes with vector arithmetic\n");
  Target gpu = kGpu;
  gpu.matrix_units = cuda_matrix_units(9, 0);
  EXPECT_EQ(gpu.str(),
            "  warp: 32 threads\n  workgroups: up to 256 threads, 48 KiB of local memory\n  multiprocessors: 132\n"
            "  matrix units: 16x8x16 half->float, 16x8x8 half->float, 16x8x16 bfloat16->float\n"
            "  vectors the renderer spells: up to 4 lanes\n"
            "  half: in registers\n");
}

}  // namespace
}  // namespace tr
