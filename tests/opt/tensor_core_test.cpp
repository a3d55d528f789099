// The TC opt: a sum of half or bfloat16 products on a GPU's matrix unit (NVIDIA's tensor cores, Apple's
// simdgroup_matrix). What it does to a kernel's dims, where it is refused, the WMMA steps it lowers to,
// CUDA and PTX sources that NVIDIA's compilers accept, and Metal's. Its values on a GPU (and on the
// Metal shim, which runs Apple's layout): OnDevice.MatmulOnTheMatrixUnitEqualsTheReference.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/codegen/tensor_cores.h"
#include "core/base/error.h"
#include "core/opt/apply_opt.h"
#include "core/opt/heuristic.h"
#include "core/render/render.h"
#include "devices/nvrtc.h"
#include "tests/kernel_testing.h"
#include "tests/ptxas_testing.h"

namespace tr {
namespace {

const Target kSm80{.gpu = true, .local_memory = 48 << 10, .cores = 108, .max_local = 256, .vector_width = 4,
                   .warp_size = 32, .matrix_units = cuda_matrix_units(8, 0)};

Tensor unit_input(const Shape& shape, uint64_t seed, DType t_in = DType::Float16) {
  Tensor t = testing::realized_random(shape, seed).cast(t_in);
  t.realize();
  return t;
}

// (m x k) @ (k x n) in half, accumulated in float as every half matmul is.
Kernel half_matmul(int64_t m, int64_t k, int64_t n) {
  return testing::only_kernel(unit_input({m, k}, 1).matmul(unit_input({k, n}, 2)));
}

int count(const UOpProgram& p, UOpKind kind) {
  return static_cast<int>(std::count_if(p.uops.begin(), p.uops.end(), [&](const UOp& u) { return u.kind == kind; }));
}

TEST(TensorCores, SplitsMIntoLanesAndElementsNIntoLanesAndElementsKIntoTheUnitsK) {
  const Kernel k = half_matmul(64, 48, 40);
  const Kernel tc = apply_opt(k, {OptOp::Tc, 2, 16}, kSm80);
  ASSERT_TRUE(tc.tc);
  EXPECT_EQ(*tc.tc, (MatrixUnit{16, 8, 16, DType::Float16, DType::Float32}));
  std::vector<std::tuple<int64_t, DimRole, TcPart>> dims;
  for (const Dim& d : tc.dims) dims.emplace_back(d.size, d.role, d.tc);
  using enum DimRole;
  EXPECT_EQ(dims, (std::vector<std::tuple<int64_t, DimRole, TcPart>>{
                      {4, Global, TcPart::None}, {5, Global, TcPart::None},     {8, Local, TcPart::MLanes},
                      {4, Local, TcPart::NLanes}, {2, Upcast, TcPart::MElems}, {2, Upcast, TcPart::NElems},
                      {3, Reduce, TcPart::None},  {16, Unroll, TcPart::K}}));
  // the elements' strides: M's second element 8 rows down, N's lanes two columns apart
  EXPECT_EQ(tc.dims[4].stride, 8);
  EXPECT_EQ(tc.dims[3].stride, 2);
}

TEST(TensorCores, TheOptIsRefusedWithItsReason) {
  const Kernel k = half_matmul(64, 48, 40);
  EXPECT_NE(testing::opt_refusal(k, {OptOp::Tc, 2, 4}, kSm80).find("the amount is the matrix unit's K; this GPU's units are 16x8x16"),
            std::string::npos);
  Target no_units = kSm80;
  no_units.matrix_units.clear();
  EXPECT_NE(testing::opt_refusal(k, {OptOp::Tc, 2, 16}, no_units).find("TC needs a GPU with matrix units"), std::string::npos);
  const Kernel f32 = testing::only_kernel(testing::realized_random({64, 48}, 1).matmul(testing::realized_random({48, 40}, 2)));
  EXPECT_NE(testing::opt_refusal(f32, {OptOp::Tc, 2, 16}, kSm80).find("sums products of two float16 or bfloat16 values in float32"),
            std::string::npos);
  const Kernel odd = half_matmul(60, 48, 40);
  EXPECT_NE(testing::opt_refusal(odd, {OptOp::Tc, 2, 16}, kSm80).find("no output dim of a multiple of 16"), std::string::npos);
  EXPECT_NE(testing::opt_refusal(apply_opt(odd, {OptOp::Padto, 0, 16}, kSm80), {OptOp::Tc, 2, 16}, kSm80).find("through the padding's mask"),
            std::string::npos);
  // a reduce dim padded to the unit's K is one: both operands read along it anyway
  const Kernel short_k = half_matmul(64, 40, 40);
  EXPECT_NE(testing::opt_refusal(short_k, {OptOp::Tc, 2, 16}, kSm80).find("must divide"), std::string::npos);
  EXPECT_EQ(testing::opt_refusal(apply_opt(short_k, {OptOp::Padto, 2, 16}, kSm80), {OptOp::Tc, 2, 16}, kSm80), "");
  const Kernel tc = apply_opt(k, {OptOp::Tc, 2, 16}, kSm80);
  EXPECT_NE(testing::opt_refusal(tc, {OptOp::Group, 6, 3}, kSm80).find("whose warp needs it whole"), std::string::npos);
  EXPECT_NE(testing::opt_refusal(apply_opt(k, {OptOp::Group, 2, 4}, kSm80), {OptOp::Tc, 2, 12}, kSm80).find("the amount is"),
            std::string::npos);
  EXPECT_NE(testing::opt_refusal(apply_opt(k, {OptOp::Group, 2, 3}, kSm80), {OptOp::Tc, 2, 16}, kSm80).find("a GROUP splits the reduce"),
            std::string::npos);
}

TEST(TensorCores, EachStepOfTheUnitsKIsOneWmmaPerTileOfTheWarp) {
  const Kernel k = apply_opt(apply_opt(half_matmul(64, 48, 40), {OptOp::Tc, 2, 16}, kSm80), {OptOp::Upcast, 0, 2}, kSm80);
  const UOpProgram p = codegen(k, kSm80, "r_tc");
  // two tiles along M, each a WMMA of 8 A and 4 B elements and the 4-lane accumulator
  EXPECT_EQ(count(p, UOpKind::Wmma), 2);
  for (const UOp& u : p.uops)
    if (u.kind == UOpKind::Wmma) {
      EXPECT_EQ(u.srcs.size(), 13u);
    }
  EXPECT_EQ(p.flops, 2 * 64 * 48 * 40);
  EXPECT_EQ(p.dims.local, (std::array<int64_t, 3>{4, 8, 1}));
  EXPECT_NE(print_uops(p.uops).find("WMMA           : float4"), std::string::npos);
  // the k 8 unit takes two steps where the k 16 one takes one
  const UOpProgram k8 = codegen(apply_opt(half_matmul(64, 48, 40), {OptOp::Tc, 2, 8}, kSm80), kSm80, "r_tc8");
  EXPECT_EQ(count(k8, UOpKind::Wmma), 1);
  EXPECT_EQ(k8.flops, 2 * 64 * 48 * 40);
}

// Two elements that the unit packs into one register are neighbours along K: one load of both where
// the operand steps 1 element along K (A of a @ b; both operands of a @ w.T).
TEST(TensorCores, NeighboursAlongKLoadTogether) {
  const auto pair_loads = [](const Kernel& k) {
    std::map<int, int> per_buffer;
    const UOpProgram p = codegen(apply_opt(k, {OptOp::Tc, 2, 16}, kSm80), kSm80, "r_pairs");
    for (const UOp& u : p.uops)
      if (u.kind == UOpKind::Load) per_buffer[p.uops[static_cast<size_t>(u.srcs[0])].buffer] += u.vec == 2 ? 1 : 0;
    return per_buffer;
  };
  EXPECT_EQ(pair_loads(half_matmul(64, 48, 40)), (std::map<int, int>{{1, 4}, {2, 0}}));
  const Kernel linear = testing::only_kernel(unit_input({64, 48}, 1).matmul(unit_input({40, 48}, 2).T()));
  EXPECT_EQ(pair_loads(linear), (std::map<int, int>{{1, 4}, {2, 2}}));
}

TEST(TensorCores, TheDefaultOptsTakeTheUnitForAHalfMatmulAndNotForAFloatOne) {
  const Kernel k = default_opts(half_matmul(128, 64, 128), kSm80);
  ASSERT_FALSE(k.opts.empty());
  EXPECT_EQ(k.opts[0], (Opt{OptOp::Tc, 2, 16}));
  const Kernel f32 = default_opts(testing::only_kernel(testing::realized_random({128, 64}, 1).matmul(testing::realized_random({64, 128}, 2))), kSm80);
  EXPECT_FALSE(f32.tc);
  // dims smaller than the warp's tile are upcast wholly: a WMMA per tile, two where the reduce has two
  // steps of the unit to unroll
  for (const auto& [m, k, n, steps] : {std::tuple{64, 32, 48, 2}, std::tuple{16, 16, 8, 1}, std::tuple{48, 16, 24, 1}}) {
    const Kernel small = default_opts(half_matmul(m, k, n), kSm80);
    EXPECT_TRUE(small.tc) << m << "x" << k << "x" << n;
    EXPECT_EQ(count(codegen(small, kSm80, "r_small"), UOpKind::Wmma), m / 16 * (n / 8) * steps) << m << "x" << k << "x" << n;
  }
  // the default tiles are staged, 2 steps of the unit a turn, in two halves
  ASSERT_GE(k.opts.size(), 2u);
  EXPECT_EQ(k.opts[k.opts.size() - 2].op, OptOp::Stage);
  EXPECT_EQ(k.opts[k.opts.size() - 2].amount, 2);
  EXPECT_EQ(k.opts.back().op, OptOp::Double);
  // a bfloat16 matmul takes the bfloat16 unit
  const Kernel bf16 = default_opts(testing::only_kernel(unit_input({128, 64}, 1, DType::BFloat16).matmul(unit_input({64, 128}, 2, DType::BFloat16))), kSm80);
  ASSERT_TRUE(bf16.tc);
  EXPECT_EQ(bf16.tc->in, DType::BFloat16);
  Target sm75 = kSm80;
  sm75.matrix_units = cuda_matrix_units(7, 5);
  EXPECT_EQ(default_opts(half_matmul(128, 64, 128), sm75).opts[0], (Opt{OptOp::Tc, 2, 8}));
}

// STAGE (and DOUBLE) after TC: each turn's tiles of A and B in local memory, copied 4 halves at a time (B's innermost
// dims, the unit's 2 columns a thread and its 4 lanes, are smaller than a copy: the copy spans them),
// each tile's rows followed by 16 unused bytes, since the unit's lanes read 8 rows at once (A's g,
// B's 2t and 2t + 1): rows of 64 or 256 bytes would put them in the same banks. A's neighbours along K
// still load as pairs, now from local memory.
TEST(TensorCores, StagedTilesOfTheUnitHavePaddedRows) {
  Kernel k = half_matmul(64, 64, 64);
  for (const Opt& o : std::vector<Opt>{{OptOp::Tc, 2, 16}, {OptOp::Upcast, 1, 4}, {OptOp::Stage, 7, 2}, {OptOp::Double, 7, 2}})
    k = apply_opt(k, o, kSm80);
  ASSERT_EQ(k.stage_axis, 2);
  const UOpProgram p = codegen(k, kSm80, "r_tc_staged");
  const testing::LocalTraffic local = testing::local_traffic(p);
  // A: 16 rows of 2 steps of 16 (+8); B: 2 steps of 16 rows of 4 x 8 columns (+8); each twice (two
  // halves, the first turn's copies before the loop and the next turn's in it)
  EXPECT_EQ(local.sizes, (std::vector<int64_t>{2 * 16 * 40, 2 * 32 * 40}));
  EXPECT_EQ(local.vector_stores, 2 * (4 + 8));  // 512 / 4 and 1024 / 4 halves by the warp's 32 threads
  EXPECT_EQ(local.loads.at(2), 4 * 2);          // A's 4 pairs at each of the 2 steps
  EXPECT_EQ(count(p, UOpKind::Wmma), 4 * 2);
  EXPECT_EQ(p.flops, 2 * 64 * 64 * 64);
  const std::string src = render("cuda", p);
  EXPECT_NE(src.find("*((half4*)(temp1+"), std::string::npos) << src;
  EXPECT_NE(src.find("*((const half2*)(temp0+"), std::string::npos) << src;
}

// CUDA and PTX spell the steps (mma.sync); the other languages refuse them with the reason. Each unit
// bare, and the default opts (whose tiles are staged in local memory).
std::vector<UOpProgram> tc_programs() {
  std::vector<UOpProgram> out;
  const auto kernel = [](DType t) {
    const Tensor a = unit_input({64, 32}, 3, t), b = unit_input({32, 48}, 4, t);
    return testing::only_kernel(a.matmul(b).add(unit_input({64, 48}, 5, t)).relu());
  };
  for (const MatrixUnit& u : kSm80.matrix_units)
    out.push_back(codegen(apply_opt(kernel(u.in), {OptOp::Tc, 2, u.k}, kSm80), kSm80, fmt::format("r_tc{}_{}", u.k, name(u.in))));
  out.push_back(codegen(default_opts(kernel(DType::Float16), kSm80), kSm80, "r_tc16_staged"));
  out.push_back(codegen(default_opts(kernel(DType::BFloat16), kSm80), kSm80, "r_tc16_staged_bfloat16"));
  return out;
}

TEST(TensorCores, CudaSourceCompilesWithNvrtc) {
  const Nvrtc* nvrtc = nullptr;
  try {
    nvrtc = &Nvrtc::get();
  } catch (const Error& e) {
    GTEST_SKIP() << e.what();
  }
  for (const UOpProgram& p : tc_programs()) {
    const std::string src = render("cuda", p);
    const bool bf16 = p.name.ends_with("bfloat16");
    EXPECT_NE(src.find(bf16 ? ".row.col.f32.bf16.bf16.f32" : ".row.col.f32.f16.f16.f32"), std::string::npos) << src;
    try {
      EXPECT_FALSE(nvrtc->compile(src, "compute_80").empty());
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

TEST(TensorCores, PtxAssemblesForSm80) {
  if (testing::ptxas().empty()) GTEST_SKIP() << "ptxas was not found (the CUDA toolkit is not installed)";
  for (const UOpProgram& p : tc_programs()) {
    const std::string src = render("ptx", p);
    // mma.m16n8k16 came with sm_80, m16n8k8 with sm_75
    EXPECT_NE(src.find(p.name.starts_with("r_tc16") ? ".target sm_80" : ".target sm_75"), std::string::npos);
    EXPECT_EQ(testing::ptxas_errors(src, "sm_90"), "") << p.name;
  }
}

// Why the backend refuses to render p ("" where it renders it).
std::string render_refusal(const std::string& backend, const UOpProgram& p) {
  try {
    render(backend, p);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(TensorCores, OtherLanguagesRefuseTheStepsWithTheReason) {
  const UOpProgram p = tc_programs().front();
  for (const std::string backend : {"opencl", "metal", "hip", "wgsl", "c"})
    EXPECT_NE(render_refusal(backend, p).find("does not spell the steps of the matrix unit 16x8x16 half->float"), std::string::npos)
        << backend;
}

const Target kApple{.gpu = true, .local_memory = 32 << 10, .cores = 1, .max_local = 256, .warp_size = 32,
                    .matrix_units = metal_matrix_units()};

// Apple's 8x8 unit: M's 8 rows are the lanes' g alone (no elements), N as NVIDIA's; each WMMA takes two
// elements of A, two of B and the two of the accumulator; Metal spells it with simdgroup matrices, the
// NVIDIA languages refuse it, and the default opts take it for a half matmul.
TEST(TensorCores, AppleUnitIsSpelledWithSimdgroupMatrices) {
  const Kernel tc = apply_opt(half_matmul(64, 48, 40), {OptOp::Tc, 2, 8}, kApple);
  ASSERT_TRUE(tc.tc);
  std::vector<std::tuple<int64_t, DimRole, TcPart>> dims;
  for (const Dim& d : tc.dims) dims.emplace_back(d.size, d.role, d.tc);
  using enum DimRole;
  EXPECT_EQ(dims, (std::vector<std::tuple<int64_t, DimRole, TcPart>>{{8, Global, TcPart::None},
                                                                     {5, Global, TcPart::None},
                                                                     {8, Local, TcPart::MLanes},
                                                                     {4, Local, TcPart::NLanes},
                                                                     {2, Upcast, TcPart::NElems},
                                                                     {6, Reduce, TcPart::None},
                                                                     {8, Unroll, TcPart::K}}));
  const UOpProgram p = codegen(tc, kApple, "r_simdgroup");
  EXPECT_EQ(count(p, UOpKind::Wmma), 1);
  for (const UOp& u : p.uops)
    if (u.kind == UOpKind::Wmma) {
      EXPECT_EQ(u.srcs.size(), 5u);
      EXPECT_EQ(u.vec, 2);
    }
  EXPECT_EQ(p.flops, 2 * 64 * 48 * 40);
  const std::string src = render("metal", p);
  EXPECT_NE(src.find("float2 wmma_8_8_8_float16_float32(half a0, half a1, half b0, half b1, float2 c) {"), std::string::npos) << src;
  EXPECT_NE(src.find("simdgroup_half8x8 a, b;"), std::string::npos) << src;
  EXPECT_NE(src.find("simdgroup_multiply_accumulate(d, a, b, d);"), std::string::npos) << src;
  for (const std::string backend : {"cuda", "ptx"})
    EXPECT_NE(render_refusal(backend, p).find("does not spell the steps of the matrix unit 8x8x8 half->float"), std::string::npos)
        << backend;
  EXPECT_EQ(default_opts(half_matmul(128, 64, 128), kApple).opts[0], (Opt{OptOp::Tc, 2, 8}));
}

// Where each unit's layout puts the lane that the launch ids number 4*gl + tl: NVIDIA's is that lane
// itself; Apple's gives lane L the row 4*(L/16) + (L/2)%4 and the columns from 2*((L/4)&2) + 2*(L%2).
TEST(TensorCores, EachUnitsLayoutPlacesTheLanes) {
  const ExprRef gl = var("gl", 0, 7), tl = var("tl", 0, 3);
  const TcLayout& nvidia = *tc_layout(kSm80.matrix_units[0]);
  EXPECT_EQ(render(nvidia.lane_position(TcAxis::M, gl, tl)), "gl");
  EXPECT_EQ(render(nvidia.lane_position(TcAxis::N, gl, tl)), "tl");
  const TcLayout& apple = *tc_layout(metal_matrix_units()[0]);
  for (int64_t lane = 0; lane < 32; lane++) {
    const std::vector<std::pair<std::string, int64_t>> at{{"gl", lane / 4}, {"tl", lane % 4}};
    EXPECT_EQ(evaluate(apple.lane_position(TcAxis::M, gl, tl), at), 4 * (lane / 16) + (lane / 2) % 4) << lane;
    EXPECT_EQ(2 * evaluate(apple.lane_position(TcAxis::N, gl, tl), at), 2 * ((lane / 4) & 2) + 2 * (lane % 2)) << lane;
  }
}

}  // namespace
}  // namespace tr
