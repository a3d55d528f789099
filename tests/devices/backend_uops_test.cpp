// UOp lists built by hand for what the linearizer does not emit yet (workgroup memory, barriers,
// IF blocks, vectors, gated stores, launch ids without local dims), rendered in every backend,
// checked for each language's spelling, and run on every device that can take them, against
// values computed here. CUDA sources compile with NVRTC wherever it exists.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "core/codegen/codegen.h"
#include "core/codegen/launch_ids.h"
#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/opt/apply_opt.h"
#include "core/opt/heuristic.h"
#include "core/opt/opt_table.h"
#include "core/render/cstyle.h"
#include "core/render/qcom.h"
#include "core/render/render.h"
#include "core/render/wgsl.h"
#include "devices/shims/gpu_shim.h"
#include "devices/nvrtc.h"
#include "tests/hip_testing.h"
#include "tests/device_run.h"
#include "tests/kernel_testing.h"
#include "tests/plugin_testing.h"
#include "tests/ptxas_testing.h"

namespace tr {
namespace {

using testing::bytes;
using testing::Bytes;
using testing::run_on;
using testing::typed_bytes;
using testing::typed_values;

// Appends UOps and returns their numbers.
class Builder {
 public:
  explicit Builder(std::string name) { p_.name = std::move(name); }

  int add(UOp u) {
    p_.uops.push_back(std::move(u));
    return static_cast<int>(p_.uops.size()) - 1;
  }
  int global(DType t, bool writes) {
    const int idx = static_cast<int>(p_.globals.size());
    p_.globals.push_back(t);
    return add({.kind = UOpKind::DefineGlobal, .dtype = t, .ptr = true, .buffer = idx, .writes = writes});
  }
  int cnst(ConstValue v, DType t = DType::Int32) { return add({.kind = UOpKind::Const, .dtype = t, .value = cast_const(v, t)}); }
  // The `number`th id of its kind on launch axis `axis`: gidx0, lidx0, ...
  int special(LaunchKind kind, int number, int64_t size, int axis) {
    (kind == LaunchKind::Local ? p_.dims.local : p_.dims.global)[axis] = size;
    return add({.kind = UOpKind::Special, .dtype = DType::Int32, .size = size, .launch = kind, .axis = axis, .number = number});
  }
  int range(int64_t n) {
    return add({.kind = UOpKind::Range, .dtype = DType::Int32, .srcs = {cnst(int64_t{0}), cnst(n)}, .range = RangeKind::Reduce,
                .number = ranges_++});
  }
  void end(int range) { add({.kind = UOpKind::EndRange, .srcs = {range}}); }
  int alu(Op op, DType t, std::vector<int> srcs, int vec = 1) {
    return add({.kind = UOpKind::Alu, .dtype = t, .vec = vec, .srcs = std::move(srcs), .alu = op});
  }
  int cast(DType t, int x, int vec = 1) { return add({.kind = UOpKind::Cast, .dtype = t, .vec = vec, .srcs = {x}}); }
  int load(DType t, int buf, int idx, int vec = 1) { return add({.kind = UOpKind::Load, .dtype = t, .vec = vec, .srcs = {buf, idx}}); }
  void store(int buf, int idx, int value) { add({.kind = UOpKind::Store, .srcs = {buf, idx, value}}); }
  const UOpProgram& program() const { return p_; }

 private:
  UOpProgram p_;
  int ranges_ = 0;
};

constexpr DType F32 = DType::Float32, I32 = DType::Int32;

// A GROUP-style reduce: each workgroup of 4 threads sums its 4 inputs through workgroup memory;
// after the barrier, thread 0 adds them up. The output holds one sum per workgroup.
UOpProgram local_sum() {
  Builder b("local_sum");
  const int out = b.global(F32, true), in = b.global(F32, false);
  const int g = b.special(LaunchKind::Global, 0, 3, 0), l = b.special(LaunchKind::Local, 0, 4, 0);
  const int tmp = b.add({.kind = UOpKind::DefineLocal, .dtype = F32, .ptr = true, .size = 4});
  const int v = b.load(F32, in, b.alu(Op::Add, I32, {b.alu(Op::Mul, I32, {g, b.cnst(int64_t{4})}), l}));
  b.store(tmp, l, v);
  b.add({.kind = UOpKind::Barrier});
  const int first = b.add({.kind = UOpKind::If, .srcs = {b.alu(Op::CmpLt, DType::Bool, {l, b.cnst(int64_t{1})})}});
  const int acc = b.add({.kind = UOpKind::DefineAcc, .dtype = F32, .value = 0.0});
  const int r = b.range(4);
  b.add({.kind = UOpKind::Assign, .dtype = F32, .srcs = {acc, b.alu(Op::Add, F32, {acc, b.load(F32, tmp, r)})}});
  b.end(r);
  b.store(out, g, acc);
  b.add({.kind = UOpKind::EndIf, .srcs = {first}});
  return b.program();
}

// Launch ids without local dims: out[y][x] = 2 * in[y][x] + x over a 5 x 3 grid of threads.
UOpProgram global_ids() {
  Builder b("global_ids");
  const int out = b.global(F32, true), in = b.global(F32, false);
  const int x = b.special(LaunchKind::Global, 0, 5, 0), y = b.special(LaunchKind::Global, 1, 3, 1);
  const int idx = b.alu(Op::Add, I32, {b.alu(Op::Mul, I32, {y, b.cnst(int64_t{5})}), x});
  const int v = b.alu(Op::Mul, F32, {b.load(F32, in, idx), b.cnst(2.0, F32)});
  b.store(out, idx, b.alu(Op::Add, F32, {v, b.cast(F32, x)}));
  return b.program();
}

// Vectors in a loop: 4-wide loads, whole-vector arithmetic, VECTORIZE, GEP, a 4-wide accumulator
// and 4-wide stores of t. out[i..i+4] = in*in + (1,2,3,4); sums[lane] = the sum over i of in; and
// lanes[i/4] = lane 0 + lane 3 of the first result.
UOpProgram vectors(DType t) {
  Builder b(fmt::format("vectors_{}", short_name(t)));
  const int out = b.global(t, true), in = b.global(t, false), sums = b.global(t, true), lanes = b.global(t, true);
  std::vector<int> c;
  for (int k = 1; k <= 4; k++) c.push_back(b.cnst(static_cast<int64_t>(k), t));
  const int four = b.add({.kind = UOpKind::Vectorize, .dtype = t, .vec = 4, .srcs = c});
  const int acc = b.add({.kind = UOpKind::DefineAcc, .dtype = t, .vec = 4, .value = int64_t{0}});
  const int r = b.range(3);
  const int idx = b.alu(Op::Mul, I32, {r, b.cnst(int64_t{4})});
  const int v = b.load(t, in, idx, 4);
  const int w = b.alu(Op::Add, t, {b.alu(Op::Mul, t, {v, v}, 4), four}, 4);
  b.store(out, idx, w);
  b.add({.kind = UOpKind::Assign, .dtype = t, .vec = 4, .srcs = {acc, b.alu(Op::Add, t, {acc, v}, 4)}});
  const int g0 = b.add({.kind = UOpKind::Gep, .dtype = t, .srcs = {w}, .lane = 0});
  const int g3 = b.add({.kind = UOpKind::Gep, .dtype = t, .srcs = {w}, .lane = 3});
  b.store(lanes, r, b.alu(Op::Add, t, {g0, g3}));
  b.end(r);
  b.store(sums, b.cnst(int64_t{0}), acc);
  return b.program();
}

// A vector read from one element past a multiple of its width, stored at the multiple.
UOpProgram shifted_load() {
  Builder b("shifted_load");
  const int out = b.global(F32, true), in = b.global(F32, false);
  const int r = b.range(3);
  const int at = b.alu(Op::Mul, I32, {r, b.cnst(int64_t{4})});
  b.store(out, at, b.load(F32, in, b.alu(Op::Add, I32, {at, b.cnst(int64_t{1})}), 4));
  b.end(r);
  return b.program();
}

// Gates: a gated load reads -1 where the index is past the input's 4 elements, and a gated store
// writes only the even positions of its output (the odd ones keep what was there).
UOpProgram gates() {
  Builder b("gates");
  const int out = b.global(I32, true), skipped = b.global(I32, true), in = b.global(I32, false);
  const int r = b.range(6);
  const int inside = b.alu(Op::CmpLt, DType::Bool, {r, b.cnst(int64_t{4})});
  const int v = b.add({.kind = UOpKind::Load, .dtype = I32, .srcs = {in, r, b.cnst(int64_t{-1}), inside}});
  b.store(out, r, v);
  const int even = b.alu(Op::CmpNe, DType::Bool, {b.alu(Op::Mod, I32, {r, b.cnst(int64_t{2})}), b.cnst(int64_t{1})});
  b.add({.kind = UOpKind::Store, .srcs = {skipped, r, b.alu(Op::Mul, I32, {v, b.cnst(int64_t{10})}), even}});
  b.end(r);
  return b.program();
}

// Every ALU op and cast the renderers spell, one output each, over inputs x = 2.5, n = 7, d = 0
// (a zero divisor, defined as 0) and h = -1.5 as half. `f64` takes one square root in float64
// (which Metal lacks), else in float32; the integer outputs are `wide` (int64, which WGSL lacks, or
// int32).
UOpProgram alus(bool f64 = true, DType wide = DType::Int64) {
  Builder b("alus");
  const int out = b.global(F32, true), ints = b.global(wide, true), in = b.global(F32, false);
  const int iin = b.global(I32, false), hin = b.global(DType::Float16, false);
  const int x = b.load(F32, in, b.cnst(int64_t{0}));
  const int n = b.load(I32, iin, b.cnst(int64_t{0})), d = b.load(I32, iin, b.cnst(int64_t{1}));
  const int h = b.load(DType::Float16, hin, b.cnst(int64_t{0}));
  std::vector<int> f{
      b.alu(Op::Exp2, F32, {x}), b.alu(Op::Log2, F32, {x}), b.alu(Op::Sin, F32, {x}), b.alu(Op::Sqrt, F32, {x}),
      b.alu(Op::Trunc, F32, {x}), b.alu(Op::Recip, F32, {x}), b.alu(Op::Neg, F32, {x}),
      b.alu(Op::Max, F32, {x, b.cnst(3.0, F32)}),
      b.alu(Op::Where, F32, {b.alu(Op::CmpLt, DType::Bool, {x, b.cnst(3.0, F32)}), b.cnst(INFINITY, F32), b.cnst(-INFINITY, F32)}),
      b.cast(F32, b.alu(Op::Exp2, DType::Float16, {h})), b.cast(F32, b.alu(Op::Mul, DType::Float16, {h, h})),
      f64 ? b.cast(F32, b.alu(Op::Sqrt, DType::Float64, {b.cast(DType::Float64, x)})) : b.alu(Op::Sqrt, F32, {b.alu(Op::Add, F32, {x, b.cnst(0.0, F32)})}),
      b.cast(F32, n)};
  for (size_t i = 0; i < f.size(); i++) b.store(out, b.cnst(static_cast<int64_t>(i)), f[i]);
  const int64_t big = wide == DType::Int64 ? INT64_MIN : INT32_MIN;
  std::vector<int> k{
      b.cast(wide, b.alu(Op::IDiv, I32, {n, b.cnst(int64_t{2})})), b.cast(wide, b.alu(Op::Mod, I32, {n, b.cnst(int64_t{3})})),
      b.cast(wide, b.alu(Op::IDiv, I32, {n, d})), b.cast(wide, b.alu(Op::Mod, I32, {n, d})),
      b.cast(wide, b.alu(Op::And, I32, {n, b.cnst(int64_t{3})})), b.cast(wide, b.alu(Op::Or, I32, {n, b.cnst(int64_t{8})})),
      b.cast(wide, b.alu(Op::Xor, I32, {n, b.cnst(int64_t{5})})), b.cast(wide, b.cast(I32, b.alu(Op::Mul, F32, {x, b.cnst(-3.0, F32)}))),
      b.cast(wide, b.cast(DType::Int8, b.alu(Op::Mul, I32, {n, b.cnst(int64_t{40})}))),
      b.cast(wide, b.cast(DType::Bool, x)), b.alu(Op::Add, wide, {b.cnst(big, wide), b.cast(wide, n)})};
  for (size_t i = 0; i < k.size(); i++) b.store(ints, b.cnst(static_cast<int64_t>(i)), k[i]);
  return b.program();
}

// double -> half in one rounding, as the reference does: values just off a tie of the half grid
// (where rounding to float first would land on the tie), and ties, which go to even.
UOpProgram double_to_half() {
  Builder b("double_to_half");
  const int out = b.global(DType::Float16, true), in = b.global(DType::Float64, false);
  const int r = b.range(5);
  b.store(out, r, b.cast(DType::Float16, b.load(DType::Float64, in, r)));
  b.end(r);
  return b.program();
}

const std::vector<double> kAlusFloat{std::exp2(2.5), std::log2(2.5), std::sin(2.5), std::sqrt(2.5), 2, 0.4, -2.5, 3,
                                     INFINITY, 0.353515625 /* exp2(-1.5) in half */, 2.25, std::sqrt(2.5), 7};
std::vector<int64_t> alus_ints(DType wide) {
  return {3, 1, 0, 0, 3, 15, 2, -7, 24 /* 280 wrapped to int8 */, 1, (wide == DType::Int64 ? INT64_MIN : INT32_MIN) + 7};
}

// ---- running on a device -----------------------------------------------------------------------

// Whether p computes on half where dev keeps half only in memory: such a device gets its kernels from
// the lowering, whose target rules move every op on half into float (codegen_rules_test), never
// hand-built ones like these.
bool computes_on_half_in_memory(const Device& dev, const UOpProgram& p) {
  if (dev.target().half_arithmetic) return false;
  return std::any_of(p.uops.begin(), p.uops.end(), [&](const UOp& u) {
    return u.kind == UOpKind::Alu && (u.dtype == DType::Float16 || std::any_of(u.srcs.begin(), u.srcs.end(), [&](int s) {
                                        return p.uops[s].dtype == DType::Float16;
                                      }));
  });
}

bool uses_launch_ids(const UOpProgram& p) {
  for (const UOp& u : p.uops)
    if (u.kind == UOpKind::Special) return true;
  return false;
}

class OnDevice : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    register_device({kMetalShim, open_metal_shim});
    register_device({kHipShim, open_hip_shim});
    testing::load_example_plugin();
  }

  // The device, or a skip (with the reason) when it cannot open or cannot launch p.
  Device* open(const UOpProgram& p) {
    if (const std::string why = device_status(GetParam()); !why.empty()) {
      skip_ = GetParam() + " cannot open: " + why;
      return nullptr;
    }
    Device& dev = device(GetParam());
    if (uses_launch_ids(p) && !dev.target().gpu) {
      skip_ = GetParam() + " runs CPU kernels: it has no launch ids";
      return nullptr;
    }
    return &dev;
  }
  std::string skip_;
};

TEST_P(OnDevice, WorkgroupMemoryBarrierAndIf) {
  const UOpProgram p = local_sum();
  Device* dev = open(p);
  if (!dev) GTEST_SKIP() << skip_;
  std::vector<float> in(12);
  for (int i = 0; i < 12; i++) in[i] = static_cast<float>(i + 1);
  const Bytes r = run_on(*dev, p, {bytes(std::vector<float>(3, -1)), bytes(in)});
  EXPECT_EQ(typed_values(F32, r[0]), (std::vector<double>{10, 26, 42}));
}

TEST_P(OnDevice, GlobalIdsWithoutLocalDims) {
  const UOpProgram p = global_ids();
  Device* dev = open(p);
  if (!dev) GTEST_SKIP() << skip_;
  std::vector<float> in(15);
  std::vector<double> want(15);
  for (int i = 0; i < 15; i++) {
    in[i] = static_cast<float>(i) * 0.5f;
    want[i] = 2 * in[i] + i % 5;
  }
  const Bytes r = run_on(*dev, p, {bytes(std::vector<float>(15, -1)), bytes(in)});
  EXPECT_EQ(typed_values(F32, r[0]), want);
}

TEST_P(OnDevice, VectorsOfFloatHalfAndInt) {
  for (DType t : {F32, DType::Float16, I32}) {
    SCOPED_TRACE(name(t));
    const UOpProgram p = vectors(t);
    Device* dev = open(p);
    if (!dev) GTEST_SKIP() << skip_;
    if (computes_on_half_in_memory(*dev, p)) continue;
    std::vector<double> in(12), out(12), sums(4, 0), lanes(3);
    for (int i = 0; i < 12; i++) {
      in[i] = i - 3;
      out[i] = in[i] * in[i] + (i % 4 + 1);
      sums[i % 4] += in[i];
    }
    for (int i = 0; i < 3; i++) lanes[i] = out[4 * i] + out[4 * i + 3];
    try {
      const Bytes r = run_on(*dev, p, {typed_bytes(t, std::vector<double>(12, 0)), typed_bytes(t, in),
                                     typed_bytes(t, std::vector<double>(4, 0)), typed_bytes(t, std::vector<double>(3, 0))});
      EXPECT_EQ(typed_values(t, r[0]), out);
      EXPECT_EQ(typed_values(t, r[2]), sums);
      EXPECT_EQ(typed_values(t, r[3]), lanes);
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

TEST_P(OnDevice, GatedLoadsAndStores) {
  const UOpProgram p = gates();
  Device* dev = open(p);
  if (!dev) GTEST_SKIP() << skip_;
  const Bytes r = run_on(*dev, p, {bytes(std::vector<int32_t>(6, 0)), bytes(std::vector<int32_t>(6, 5)), bytes(std::vector<int32_t>{7, 8, 9, 10})});
  EXPECT_EQ(typed_values(I32, r[0]), (std::vector<double>{7, 8, 9, 10, -1, -1}));
  EXPECT_EQ(typed_values(I32, r[1]), (std::vector<double>{70, 5, 90, 5, -10, 5}));
}

TEST_P(OnDevice, EveryAluOpAndCast) {
  const bool webgpu = GetParam() == "WEBGPU";  // WGSL has no 64-bit type
  const DType wide = webgpu ? I32 : DType::Int64;
  const UOpProgram p = alus(GetParam() != kMetalShim && !webgpu, wide);
  Device* dev = open(p);
  if (!dev) GTEST_SKIP() << skip_;
  if (computes_on_half_in_memory(*dev, p)) GTEST_SKIP() << GetParam() << " keeps half only in memory: no hand-built op on half";
  const std::vector<int64_t> want = alus_ints(wide);
  const Bytes r = run_on(*dev, p, {bytes(std::vector<float>(kAlusFloat.size(), 0)), typed_bytes(wide, std::vector<double>(want.size(), 0)),
                                 bytes(std::vector<float>{2.5f}), bytes(std::vector<int32_t>{7, 0}), typed_bytes(DType::Float16, {-1.5})});
  const std::vector<double> f = typed_values(F32, r[0]);
  for (size_t i = 0; i < kAlusFloat.size(); i++) {
    if (std::isinf(kAlusFloat[i])) EXPECT_EQ(f[i], kAlusFloat[i]) << "float output " << i;
    else EXPECT_NEAR(f[i], kAlusFloat[i], 1e-6 * std::max(1.0, std::abs(kAlusFloat[i]))) << "float output " << i;
  }
  HostData ints(wide, static_cast<int64_t>(want.size()));
  ints.bytes = r[1];
  std::vector<int64_t> k;
  for (int64_t i = 0; i < ints.size(); i++) k.push_back(as_int(ints.get(i)));
  EXPECT_EQ(k, want);
}

TEST_P(OnDevice, DoubleToHalfInOneRounding) {
  if (GetParam() == kMetalShim || GetParam() == "WEBGPU") GTEST_SKIP() << GetParam() << "'s language has no float64";
  const UOpProgram p = double_to_half();
  Device* dev = open(p);
  if (!dev) GTEST_SKIP() << skip_;
  const double tie = 1 + std::ldexp(1.0, -11), tiny = std::ldexp(1.0, -40);
  const std::vector<double> in{tie + tiny, tie - tiny, tie, 1 + 3 * std::ldexp(1.0, -11), -(tie + tiny)};
  std::vector<double> want;
  for (double v : in) want.push_back(round_to(DType::Float16, v));
  EXPECT_EQ(want[0], 1 + std::ldexp(1.0, -10));  // the reference rounds up, away from the tie
  const Bytes r = run_on(*dev, p, {typed_bytes(DType::Float16, std::vector<double>(5, 0)), typed_bytes(DType::Float64, in)});
  EXPECT_EQ(typed_values(DType::Float16, r[0]), want);
}

// An output dim with more workgroups than the device allows on its launch axis (y here, lowered with
// a limit of 1000 there) joins the x id, which numbers both, and every element is still written once.
TEST_P(OnDevice, AnOutputDimPastTheGridLimitJoinsX) {
  if (const std::string why = device_status(GetParam()); !why.empty()) GTEST_SKIP() << GetParam() << " cannot open: " << why;
  if (!device(GetParam()).target().gpu) GTEST_SKIP() << GetParam() << " runs CPU kernels: it has no launch ids";
  Target t = device(GetParam()).target();
  t.max_groups = {kNoGroupLimit, 1000, 1000};
  const Tensor x = testing::realized_random({3000, 64}, 1);
  const Kernel k = default_opts(testing::only_kernel(x.mul(x)), t);
  ASSERT_EQ(launch_ids(k, LaunchKind::Global, t).size(), 1u);
  const UOpProgram p = codegen(k, t, "E_joined");
  EXPECT_EQ(p.dims.global[1], 1);
  std::vector<float> in(3000 * 64), want(3000 * 64);
  const std::vector<double> v = testing::values(x);
  for (size_t i = 0; i < in.size(); i++) {
    in[i] = static_cast<float>(v[i]);
    want[i] = in[i] * in[i];
  }
  const Bytes r = run_on(device(GetParam()), p, {bytes(std::vector<float>(in.size(), -1)), bytes(in)});
  EXPECT_EQ(r[0], bytes(want));
}

// The one kernel of a matmul of realized inputs with a bias after it, and the inputs' values in the
// order its loads number them: the load read along both m (axis 0) and k (axis 2) is a's, along k
// only b's, the other the bias's.
struct BiasedMatmul {
  Kernel kernel;
  std::vector<std::vector<double>> inputs;
};
BiasedMatmul biased_matmul(const Tensor& out, const std::vector<double>& a, const std::vector<double>& b,
                           const std::vector<double>& bias) {
  std::vector<ScheduleItem> items = create_schedule({base_of(out.node())});
  std::erase_if(items, [](const ScheduleItem& s) { return !s.ast; });
  EXPECT_EQ(items.size(), 1u);
  BiasedMatmul r{Kernel::from_ast(items.back().ast), std::vector<std::vector<double>>(3)};
  walk(r.kernel.ast, [&](const AstNode& x) {
    if (x.op != AstOp::Load) return;
    const bool along_k = x.st->real_stride(2) != 0, along_m = x.st->real_stride(0) != 0;
    r.inputs[static_cast<size_t>(x.idx - 1)] = along_k ? (along_m ? a : b) : bias;
  });
  return r;
}

// A half and a bfloat16 matmul with a bias and relu after it, on each of the device's matrix units for
// its dtype (the TC opt, with the default opts' tiles after it and without them), with B read down its
// columns and, as a linear layer's weight, along its rows (then both operands' neighbouring elements
// load together): equal to a float64 sum of the same products, rounded to the dtype. The unit
// multiplies exactly and adds in float, so only the rounding of the float sum may differ.
TEST_P(OnDevice, MatmulOnTheMatrixUnitEqualsTheReference) {
  if (const std::string why = device_status(GetParam()); !why.empty()) GTEST_SKIP() << GetParam() << " cannot open: " << why;
  const Target t = device(GetParam()).target();
  if (t.matrix_units.empty()) GTEST_SKIP() << GetParam() << " has no matrix units";
  const int64_t m = 128, k = 96, n = 80;
  for (const DType dt : {DType::Float16, DType::BFloat16}) {
    std::vector<MatrixUnit> units;
    std::copy_if(t.matrix_units.begin(), t.matrix_units.end(), std::back_inserter(units), [&](const MatrixUnit& u) { return u.in == dt; });
    if (units.empty()) continue;
    std::mt19937_64 rng(7);
    const std::vector<double> a = testing::random_values(rng, m * k, dt, -2, 2), b = testing::random_values(rng, k * n, dt, -2, 2),
                              bias = testing::random_values(rng, m * n, dt, -2, 2);
    std::vector<double> b_rows(k * n);  // b as the (n, k) weight of a linear layer
    for (int64_t x = 0; x < k; x++)
      for (int64_t j = 0; j < n; j++) b_rows[j * k + x] = b[x * n + j];
    // the float sum's rounding may differ from the float64 one's by one of the dtype's units, which the
    // bias does not cancel: the tolerance scales with the sum as well as the result
    const double unit = dt == DType::Float16 ? 1.5e-3 : 1e-2;
    std::vector<double> want(m * n), tolerance(m * n);
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        double s = 0;
        for (int64_t x = 0; x < k; x++) s += a[i * k + x] * b[x * n + j];
        const double sum = round_to(dt, s);
        want[i * n + j] = std::max(0.0, round_to(dt, sum + bias[i * n + j]));
        tolerance[i * n + j] = unit * (std::abs(sum) + std::abs(want[i * n + j])) + unit;
      }
    for (const bool weight : {false, true}) {
      const Tensor bt = weight ? testing::tensor(b_rows, {n, k}, dt).T() : testing::tensor(b, {k, n}, dt);
      const Tensor out = testing::tensor(a, {m, k}, dt).matmul(bt).add(testing::tensor(bias, {m, n}, dt)).relu();
      const auto [plain, inputs] = biased_matmul(out, a, weight ? b_rows : b, bias);
      std::vector<Kernel> kernels{default_opts(plain, t)};
      for (const MatrixUnit& u : units) kernels.push_back(apply_opt(plain, {OptOp::Tc, 2, u.k}, t));
      for (const Kernel& kernel : kernels) {
        ASSERT_TRUE(kernel.tc) << kernel.opts.size();
        ASSERT_EQ(kernel.tc->in, dt);
        const UOpProgram p = codegen(kernel, t, "r_tc");
        Bytes in{typed_bytes(dt, std::vector<double>(m * n, -1))};
        for (const std::vector<double>& x : inputs) in.push_back(typed_bytes(dt, x));
        const std::vector<double> got = typed_values(dt, run_on(device(GetParam()), p, in)[0]);
        for (int64_t i = 0; i < m * n; i++)
          ASSERT_NEAR(got[i], want[i], tolerance[i])
              << name(dt) << " element " << i << " with " << kernel.opts[0].str() << (weight ? ", B a weight" : "");
      }
    }
  }
}

// A matmul with a bias and relu after it, its tiles staged in local memory (STAGE): with the device's
// default opts (which stage a GPU's matmul, the reduce dim of 40 padded to 48 first, so the copies are
// gated) and by hand with 4 threads a row, with and without two halves a tile (DOUBLE); B read down its
// columns and, as a linear layer's weight, along its rows (its tile then lies along N in local memory,
// where the copies scatter it); equal to a float64 sum within float32's rounding.
// BLOCK on every device: a matmul with relu after it and a padded column max, each reduce walked in
// blocks whose partial results wait in the output (filled with values that a wrong start would show:
// -1 under the matmul's relu, a large value under the max), and a transpose walked in blocks of rows.
TEST_P(OnDevice, BlockedReducesEqualTheReference) {
  if (const std::string why = device_status(GetParam()); !why.empty()) GTEST_SKIP() << GetParam() << " cannot open: " << why;
  const Target t = device(GetParam()).target();
  const int64_t m = 24, k = 64, n = 40, rows = 64, cols = 36;
  std::mt19937_64 rng(10);
  const std::vector<double> a = testing::random_values(rng, m * k, F32, -2, 2), b = testing::random_values(rng, k * n, F32, -2, 2),
                            x = testing::random_values(rng, rows * cols, F32, -2, 2);
  std::vector<double> product(m * n), column_max(cols, -1e30), transposed(rows * cols);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = 0;
      for (int64_t y = 0; y < k; y++) s += a[i * k + y] * b[y * n + j];
      product[i * n + j] = std::max(0.0, s);
    }
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < cols; c++) {
      column_max[c] = std::max(column_max[c], x[r * cols + c]);
      transposed[c * rows + r] = x[r * cols + c];
    }
  struct Case {
    Tensor out;
    std::vector<Opt> opts;
    std::vector<std::vector<double>> inputs;
    double fill;
    std::vector<double> want;
  };
  const std::vector<Case> cases{
      {testing::tensor(a, {m, k}).matmul(testing::tensor(b, {k, n})).relu(),
       {{OptOp::Upcast, 1, 4}, {OptOp::Block, 3, 16}, {OptOp::Unroll, 4, 4}}, {a, b}, -1, product},
      {testing::tensor(x, {rows, cols}).max(std::vector<int>{0}), {{OptOp::Padto, 0, 16}, {OptOp::Upcast, 0, 4}, {OptOp::Block, 2, 8}},
       {x}, 1e30, column_max},
      {testing::tensor(x, {rows, cols}).T().contiguous(), {{OptOp::Block, 1, 8}}, {x}, 0, transposed}};
  for (const Case& c : cases) {
    std::vector<ScheduleItem> items = create_schedule({base_of(c.out.node())});
    std::erase_if(items, [](const ScheduleItem& s) { return !s.ast; });
    ASSERT_EQ(items.size(), 1u);
    Kernel kernel = Kernel::from_ast(items.back().ast);
    for (const Opt& o : c.opts) kernel = apply_opt(kernel, o, t);
    const UOpProgram p = codegen(kernel, t, "r_blocked");
    Bytes in{typed_bytes(F32, std::vector<double>(c.want.size(), c.fill))};
    for (const std::vector<double>& v : c.inputs) in.push_back(typed_bytes(F32, v));
    const std::vector<double> got = typed_values(F32, run_on(device(GetParam()), p, in)[0]);
    for (size_t i = 0; i < c.want.size(); i++) ASSERT_NEAR(got[i], c.want[i], 1e-4 * (1 + std::abs(c.want[i]))) << "element " << i;
  }
}

// A transpose whose tile the expand pass transposes in registers (a square of the target's vector
// width, and 16 of the load's lanes by that width), with the device's caches taken as tiny so that its
// stores stream wherever the target can: float32, int32 and float64 values equal to the input's, the
// output filled first with values that a missed element would show.
TEST_P(OnDevice, TransposedTilesEqualTheReference) {
  if (const std::string why = device_status(GetParam()); !why.empty()) GTEST_SKIP() << GetParam() << " cannot open: " << why;
  Target t = device(GetParam()).target();
  t.caches = {.l1d = 32 << 10, .l2 = 1 << 10, .l3 = 1 << 10};
  const int64_t rows = 48, cols = 64, w = t.vector_width >= 2 ? t.vector_width : 4;
  std::mt19937_64 rng(11);
  for (const DType dt : {F32, DType::Int32, DType::Float64}) {
    if (dt == DType::Float64 && (GetParam() == kMetalShim || GetParam() == "WEBGPU")) continue;  // no float64 there
    const std::vector<double> x = testing::random_values(rng, rows * cols, dt, -100, 100);
    std::vector<double> want(rows * cols);
    for (int64_t r = 0; r < rows; r++)
      for (int64_t c = 0; c < cols; c++) want[c * rows + r] = x[r * cols + c];
    std::vector<ScheduleItem> items = create_schedule({base_of(testing::tensor(x, {rows, cols}, dt).T().contiguous().node())});
    std::erase_if(items, [](const ScheduleItem& s) { return !s.ast; });
    ASSERT_EQ(items.size(), 1u);
    for (const std::vector<Opt>& opts : std::vector<std::vector<Opt>>{{{OptOp::Upcast, 1, w}, {OptOp::Upcast, 0, w}},
                                                                      {{OptOp::Upcast, 1, w}, {OptOp::Upcast, 0, 16}}}) {
      Kernel kernel = Kernel::from_ast(items.back().ast);
      for (const Opt& o : opts) kernel = apply_opt(kernel, o, t);
      const UOpProgram p = codegen(kernel, t, "E_transposed");
      const Bytes in{typed_bytes(dt, std::vector<double>(want.size(), -7)), typed_bytes(dt, x)};
      const std::vector<double> got = typed_values(dt, run_on(device(GetParam()), p, in)[0]);
      for (size_t i = 0; i < want.size(); i++)
        ASSERT_EQ(got[i], want[i]) << name(dt) << " element " << i << " with " << opts[0].str() << ", " << opts[1].str();
    }
  }
}

TEST_P(OnDevice, StagedMatmulEqualsTheReference) {
  if (const std::string why = device_status(GetParam()); !why.empty()) GTEST_SKIP() << GetParam() << " cannot open: " << why;
  const Target t = device(GetParam()).target();
  if (!target_has(t, OptNeeds::LocalMemory)) GTEST_SKIP() << GetParam() << " has no workgroups with local memory";
  const int64_t m = 64, k = 40, n = 128;
  std::mt19937_64 rng(9);
  const std::vector<double> a = testing::random_values(rng, m * k, F32, -2, 2), b = testing::random_values(rng, k * n, F32, -2, 2),
                            bias = testing::random_values(rng, n, F32, -2, 2);
  std::vector<double> b_rows(k * n);  // b as the (n, k) weight of a linear layer
  for (int64_t x = 0; x < k; x++)
    for (int64_t j = 0; j < n; j++) b_rows[j * k + x] = b[x * n + j];
  std::vector<double> want(m * n);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double s = bias[j];
      for (int64_t x = 0; x < k; x++) s += a[i * k + x] * b[x * n + j];
      want[i * n + j] = std::max(0.0, s);
    }
  for (const bool weight : {false, true}) {
    const Tensor bt = weight ? testing::tensor(b_rows, {n, k}).T() : testing::tensor(b, {k, n});
    const Tensor out = testing::tensor(a, {m, k}).matmul(bt).add(testing::tensor(bias, {n})).relu();
    const auto [plain, inputs] = biased_matmul(out, a, weight ? b_rows : b, bias);
    Kernel by_hand = plain;
    for (const Opt& o : std::vector<Opt>{{OptOp::Upcast, 1, 4}, {OptOp::Stage, 3, 8}, {OptOp::Local, 1, 8}, {OptOp::Local, 0, 4}})
      by_hand = apply_opt(by_hand, o, t);
    const auto staged = std::find_if(by_hand.dims.begin(), by_hand.dims.end(), [](const Dim& d) { return d.role == DimRole::Reduce; });
    const Kernel halves = apply_opt(by_hand, {OptOp::Double, static_cast<int>(staged - by_hand.dims.begin()), 2}, t);
    const Kernel defaults = default_opts(plain, t);
    for (const Kernel& kernel : {defaults, by_hand, halves}) {
      const UOpProgram p = codegen(kernel, t, "r_staged");
      if (&kernel == &defaults && t.gpu) {
        EXPECT_GE(kernel.stage_axis, 0) << GetParam();
        EXPECT_TRUE(std::any_of(p.uops.begin(), p.uops.end(), [](const UOp& u) { return u.kind == UOpKind::DefineLocal; }));
      }
      Bytes in{bytes(std::vector<float>(m * n, -1))};
      for (const std::vector<double>& x : inputs) in.push_back(typed_bytes(F32, x));
      const std::vector<double> got = typed_values(F32, run_on(device(GetParam()), p, in)[0]);
      for (int64_t i = 0; i < m * n; i++)
        ASSERT_NEAR(got[i], want[i], 1e-4 * (1 + std::abs(want[i])))
            << "element " << i << " with " << kernel.opts.size() << " opts" << (weight ? ", B a weight" : "");
    }
  }
}

std::string device_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

INSTANTIATE_TEST_SUITE_P(Devices, OnDevice,
                         ::testing::Values("CPU", "LLVM", "OPENCL", "QCOM", "METALSHIM", "HIPSHIM", "CUDA", "NV", "WEBGPU", "PLUGCPU"),
                         device_name);

// ---- spelling --------------------------------------------------------------------------------

const std::vector<UOpProgram>& hand_built() {
  static const std::vector<UOpProgram> all{local_sum(), global_ids(), vectors(F32), vectors(DType::Float16), vectors(I32), gates(), alus(false)};
  return all;
}

void expect_contains(const std::string& src, const std::vector<std::string>& parts) {
  for (const std::string& part : parts) EXPECT_NE(src.find(part), std::string::npos) << "no `" << part << "` in\n" << src;
}

// Images (QCOM): out[4i..4i+4] = in[4i..4i+4] * 2 + in2[i] over n texels, one thread a texel.
UOpProgram texels(int64_t n) {
  Builder b("texels");
  const int out = b.global(F32, true), in = b.global(F32, false), scalars = b.global(F32, false);
  const int i = b.special(LaunchKind::Global, 0, n, 0);
  const int at = b.alu(Op::Mul, I32, {i, b.cnst(int64_t{4})});
  const int two = b.add({.kind = UOpKind::Vectorize, .dtype = F32, .vec = 4,
                         .srcs = std::vector<int>(4, b.cnst(2.0, F32))});
  const int s = b.load(F32, scalars, i);
  const int s4 = b.add({.kind = UOpKind::Vectorize, .dtype = F32, .vec = 4, .srcs = std::vector<int>(4, s)});
  b.store(out, at, b.alu(Op::Add, F32, {b.alu(Op::Mul, F32, {b.load(F32, in, at, 4), two}, 4), s4}, 4));
  return b.program();
}

TEST(Spelling, QcomTakesWholeAlignedFloat4BuffersAsImages) {
  const UOpProgram p = texels(3);
  EXPECT_EQ(image_buffers(p), (std::vector<bool>{true, true, false}));  // the scalars are read one by one
  expect_contains(render("qcom", p), {"write_only image2d_t data0", "read_only image2d_t data1", "__global const float* restrict data2",
                                      "read_imagef(data1, tr_sampler, (int2)(((alu0)/4)%4096,((alu0)/4)/4096))",
                                      "write_imagef(data0, (int2)(", "__constant sampler_t tr_sampler"});
  EXPECT_EQ(render("opencl", p).find("image2d_t"), std::string::npos);
  // a buffer stored lane by lane (vectors' lanes), read one by one (local_sum's), or read and written stays a buffer
  EXPECT_EQ(image_buffers(vectors(F32)), (std::vector<bool>{true, true, true, false}));
  EXPECT_EQ(image_buffers(local_sum()), (std::vector<bool>{false, false}));
  Builder b("in_place");
  const int buf = b.global(F32, true), at = b.cnst(int64_t{4});
  b.store(buf, at, b.load(F32, buf, at, 4));
  EXPECT_EQ(image_buffers(b.program()), (std::vector<bool>{false}));
}

// On QCOM the images are copies of the buffers (PoCL cannot view a buffer as an image): a buffer of
// two full rows of 4096 texels and a part of a third goes in and comes out whole.
TEST(Images, QcomRunsImagesOfSeveralRows) {
  if (const std::string why = device_status("QCOM"); !why.empty()) GTEST_SKIP() << "QCOM cannot open: " << why;
  Device& dev = device("QCOM");
  const int64_t n = 2 * kImageWidth + 5;
  const UOpProgram p = texels(n);
  EXPECT_NE(dev.render(p).find("read_imagef"), std::string::npos);
  std::vector<float> in(static_cast<size_t>(4 * n)), scalars(static_cast<size_t>(n));
  for (size_t k = 0; k < in.size(); k++) in[k] = static_cast<float>(k % 1000) * 0.5f;
  for (size_t k = 0; k < scalars.size(); k++) scalars[k] = static_cast<float>(k);
  const Bytes r = run_on(dev, p, {bytes(std::vector<float>(in.size(), -1)), bytes(in), bytes(scalars)});
  const std::vector<double> got = typed_values(F32, r[0]);
  for (size_t k = 0; k < in.size(); k++)
    if (got[k] != in[k] * 2 + scalars[k / 4]) FAIL() << "element " << k << ": " << got[k];
  EXPECT_EQ(typed_values(F32, r[1]), typed_values(F32, bytes(in)));  // the input's buffer is unchanged
}

// WGSL has no 64-bit type: a program with one fails to render, saying so.
bool wide(const UOpProgram& p) {
  return std::any_of(p.uops.begin(), p.uops.end(), [](const UOp& u) { return itemsize(u.dtype) == 8; });
}

TEST(Spelling, EveryBackendRendersEveryHandBuiltProgram) {
  for (const UOpProgram& p : hand_built())
    for (const std::string& backend : backends()) {
      try {
        EXPECT_NE(render(backend, p).find(p.name), std::string::npos);
        EXPECT_FALSE(backend == "wgsl" && wide(p)) << "WGSL rendered a 64-bit type in " << p.name;
      } catch (const Error& e) {
        if (backend == "wgsl" && wide(p) && std::string(e.what()).starts_with("WGSL has no")) continue;
        ADD_FAILURE() << backend << " on " << p.name << ": " << e.what();
      }
    }
}

// x workgroups past WebGPU's limit fold into z where the kernel's ids leave z free and a divisor fits.
TEST(Spelling, WgslDispatchFoldsXIntoZ) {
  EXPECT_TRUE(wgsl_z_free(local_sum()));
  EXPECT_EQ(wgsl_dispatch({3, 2, 1}, true, 65535), (std::array<int64_t, 3>{3, 2, 1}));
  EXPECT_EQ(wgsl_dispatch({1 << 18, 1, 1}, true, 65535), (std::array<int64_t, 3>{32768, 1, 8}));
  EXPECT_EQ(wgsl_dispatch({65537, 1, 1}, true, 65535), (std::array<int64_t, 3>{1, 1, 65537}));  // a prime: the device refuses it
  Builder b("z");
  const int out = b.global(F32, true);
  const int z = b.add({.kind = UOpKind::Special, .dtype = I32, .size = 2, .launch = LaunchKind::Global, .axis = 2});
  b.store(out, z, b.cnst(1.0, F32));
  EXPECT_FALSE(wgsl_z_free(b.program()));
  EXPECT_EQ(wgsl_dispatch({1 << 18, 1, 2}, false, 65535), (std::array<int64_t, 3>{1 << 18, 1, 2}));
}

TEST(Spelling, WgslBindingsWorkgroupsSelectAndPackedBytes) {
  expect_contains(render("wgsl", local_sum()),
                  {"@group(0) @binding(0) var<storage, read_write> data0: array<f32>;",
                   "@group(0) @binding(1) var<storage, read> data1: array<f32>;", "var<workgroup> temp0: array<f32, 4>;",
                   "@compute @workgroup_size(4, 1, 1)\nfn local_sum(@builtin(workgroup_id) gid: vec3<u32>, "
                   "@builtin(local_invocation_id) lid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {",
                   "var lidx0: i32 = i32(lid.x);", "var gidx0: i32 = i32(gid.x+gid.z*nwg.x);", "workgroupBarrier();", "for (var ridx0: i32 = 0;"});
  // gated loads pick their alternative with select(); infinity comes from a helper, as a constant may not be one
  expect_contains(render("wgsl", gates()), {"select("});
  expect_contains(render("wgsl", alus(false, DType::Int32)), {"-inf_f32()", "bitcast<f32>(bits)", "((i32(", "<<24u)>>24u)"});
  // a bool buffer is packed four to a u32 word, written with atomics on the word
  Builder b("bools");
  const int out = b.global(DType::Bool, true), in = b.global(DType::UInt8, false);
  const int r = b.range(6);
  b.store(out, r, b.alu(Op::CmpNe, DType::Bool, {b.load(DType::UInt8, in, r), b.cnst(int64_t{0}, DType::UInt8)}));
  b.end(r);
  expect_contains(render("wgsl", b.program()), {"var<storage, read_write> data0: array<atomic<u32>>;",
                                                "var<storage, read> data1: array<u32>;", "atomicAnd(&data0[(ridx0)/4]",
                                                "atomicOr(&data0[(ridx0)/4]", "((data1[(ridx0)/4]>>(u32((ridx0)%4)*8u))&0xffu)"});
}

TEST(Spelling, WorkgroupIdsMemoryAndBarriers) {
  const UOpProgram p = local_sum();
  expect_contains(render("opencl", p), {"__kernel void local_sum(", "int gidx0 = get_group_id(0);", "int lidx0 = get_local_id(0);",
                                        "__local __attribute__((aligned(16))) float temp0[4];", "barrier(CLK_LOCAL_MEM_FENCE);", "if ((lidx0<1)) {"});
  expect_contains(render("cuda", p), {"extern \"C\" __global__ void local_sum(", "int gidx0 = blockIdx.x;", "int lidx0 = threadIdx.x;",
                                      "__shared__ __align__(16) float temp0[4];", "__syncthreads();"});
  expect_contains(render("metal", p), {"kernel void local_sum(", "device float* data0 [[buffer(0)]]",
                                       "uint3 gid [[threadgroup_position_in_grid]]", "uint3 lid [[thread_position_in_threadgroup]]",
                                       "int gidx0 = gid.x;", "threadgroup float temp0[4];",
                                       "threadgroup_barrier(mem_flags::mem_threadgroup);"});
  expect_contains(render("llvm", p), {"%temp0 = alloca [4 x float]", "getelementptr inbounds [4 x float], ptr %temp0, i32 0, i32",
                                      "br i1", "label %if", "phi i32"});
  expect_contains(render("c", p), {"float temp0[4];", "int core_id, int gidx0, int lidx0)"});
}

TEST(Spelling, GridIdsWhenThereAreNoLocalDims) {
  const UOpProgram p = global_ids();
  expect_contains(render("opencl", p), {"int gidx0 = get_global_id(0);", "int gidx1 = get_global_id(1);"});
  expect_contains(render("cuda", p), {"int gidx0 = (blockIdx.x*blockDim.x+threadIdx.x);", "(blockIdx.y*blockDim.y+threadIdx.y)"});
  expect_contains(render("metal", p), {"uint3 gid [[thread_position_in_grid]]", "int gidx1 = gid.y;"});
  EXPECT_EQ(render("metal", p).find("lid"), std::string::npos);
}

TEST(Spelling, VectorTypes) {
  // OpenCL: a plain dereference where the index is aligned, vload/vstore elsewhere
  expect_contains(render("opencl", vectors(F32)), {"*((__global const float4*)(data1+alu1))", "*((__global float4*)(data0+alu1)) = ",
                                                   "((float4)(1.0f,2.0f,3.0f,4.0f))", ".s3"});
  expect_contains(render("opencl", shifted_load()), {"vload4(0, data1+(alu0+1))", "*((__global float4*)(data0+alu0)) = val0;"});
  expect_contains(render("cuda", vectors(F32)), {"make_float4(1.0f,2.0f,3.0f,4.0f)", "float4 acc0 = make_float4(0.0f,0.0f,0.0f,0.0f);", ".w"});
  expect_contains(render("cuda", vectors(DType::Float16)), {"struct __align__(8) half4 { half x, y, z, w; };", "make_half4("});
  // no unaligned vector access in Metal and CUDA: Metal's vectors move lane by lane, CUDA's whole only
  // where the index is a provable multiple of the width (ridx0*4 here; ridx0*4+1 in shifted_load)
  expect_contains(render("metal", vectors(F32)), {"float4(data1[alu1],data1[alu1+1],data1[alu1+2],data1[alu1+3])", "float4(1.0f,2.0f,3.0f,4.0f)"});
  expect_contains(render("cuda", vectors(F32)), {"*((const float4*)(data1+alu1))", "*((float4*)(data0+alu1)) = "});
  expect_contains(render("cuda", shifted_load()), {"make_float4(data1[(alu0+1)],data1[(alu0+1)+1],data1[(alu0+1)+2],data1[(alu0+1)+3])",
                                                   "*((float4*)(data0+alu0)) = val0;"});
  expect_contains(render("c", vectors(F32)), {"typedef float float4 __attribute__((vector_size(16),aligned(4)));",
                                              "*((const float4*)(data1+alu1))", "((float4){1.0f,2.0f,3.0f,4.0f})"});
  expect_contains(render("llvm", vectors(F32)), {"load <4 x float>", "fmul <4 x float>", "insertelement <4 x float>", "extractelement <4 x float>"});
}

// PTX: launch ids as special registers, workgroup memory as a .shared array, a gated load under its
// predicate, half computed in float32 and rounded back, float64 math as PTX of its own, and no fusing
// of + and * (each rounds to nearest)
TEST(Spelling, Ptx) {
  expect_contains(render("ptx", local_sum()), {".target sm_75", ".visible .entry local_sum(", "mov.u32 %r0, %ctaid.x;", "%tid.x;",
                                               ".shared .align 16 .b8 temp0[16];", "bar.sync 0;", "st.shared.f32"});
  expect_contains(render("ptx", global_ids()), {"%ntid.y;", "mad.lo.s32"});
  expect_contains(render("ptx", gates()), {"@%p"});
  const std::string alu = render("ptx", alus());
  expect_contains(alu, {"cvt.f32.f16", "cvt.rn.f16.f32", "ex2.approx.f32", "sqrt.rn.f64", "cvt.rzi.s64.f32"});
  const std::string vec = render("ptx", vectors(F32));
  expect_contains(vec, {"ld.global.f32 %r", "+12]", "mul.rn.f32"});
  EXPECT_EQ(vec.find("fma"), std::string::npos);
}

TEST(Spelling, HalfMathCastsAndLiterals) {
  const UOpProgram p = alus();
  expect_contains(render("cuda", p), {"struct __align__(2) half", "((half)exp2f((float)val", "#define INFINITY"});
  expect_contains(render("c", p), {"((_Float16)exp2f((float)val", "(-9223372036854775807ll-1)",
                                   ">=9.223372e+18f)?((long long)9223372036854775807ll)"});
  expect_contains(render("opencl", p), {"#pragma OPENCL EXTENSION cl_khr_fp16 : enable", "#pragma OPENCL EXTENSION cl_khr_fp64 : enable",
                                        "(-9223372036854775807l-1)", "exp2(val"});
  expect_contains(render("llvm", p), {"call float @llvm.exp2.f32", "fpext half", "fptrunc float", "sitofp i32", "@llvm.fptosi.sat.i64.f32",
                                      "declare double @llvm.sqrt.f64(double)"});
  expect_contains(render("llvm", vectors(DType::Float16)), {"store <4 x half> <half 0xH0000, half 0xH0000, half 0xH0000, half 0xH0000>, ptr %acc0",
                                                            "insertelement <4 x half> poison, half 0xH3C00, i32 0"});
  // Metal has no float64
  try {
    render("metal", p);
    ADD_FAILURE() << "Metal rendered a float64 kernel";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "type");
    EXPECT_EQ(std::string(e.what()), "Metal has no float64");
  }
}

// MAX spells each source twice and a guarded division its divisor twice: chains of them name their
// intermediate values instead of inlining them, which would double the text at every link.
TEST(Spelling, ChainsOfOpsThatRepeatASourceStayLinear) {
  Builder b("chain");
  const int out = b.global(I32, true), in = b.global(I32, false);
  int x = b.load(I32, in, b.cnst(int64_t{0}));
  for (int64_t i = 1; i <= 16; i++) {
    const int v = b.load(I32, in, b.cnst(i));
    x = b.alu(Op::IDiv, I32, {b.alu(Op::Max, I32, {x, v}), v});
  }
  b.store(out, b.cnst(int64_t{0}), x);
  for (const std::string& backend : backends()) EXPECT_LT(render(backend, b.program()).size(), 6000u) << backend;
}

TEST(Spelling, MissingVectorTypesAndUnknownBackendsAreErrors) {
  Builder b("bools");
  const int out = b.global(DType::Bool, true);
  const int t = b.cnst(true, DType::Bool);
  b.store(out, b.cnst(int64_t{0}), b.add({.kind = UOpKind::Vectorize, .dtype = DType::Bool, .vec = 4, .srcs = {t, t, t, t}}));
  for (const char* backend : {"c", "opencl"}) {
    try {
      render(backend, b.program());
      ADD_FAILURE() << backend << " rendered a bool vector";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), "type");
      EXPECT_NE(std::string(e.what()).find("4-wide vector of bool"), std::string::npos) << e.what();
    }
  }
  EXPECT_NE(render("metal", b.program()).find("bool4"), std::string::npos);
  try {
    render("spirv", b.program());
    ADD_FAILURE() << "rendered an unknown backend";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "unknown backend 'spirv' (backends: c, llvm, opencl, metal, cuda, ptx, hip, wgsl, qcom)");
  }
}

TEST(Nvrtc, CompilesEveryHandBuiltProgram) {
  const Nvrtc* nvrtc = nullptr;
  try {
    nvrtc = &Nvrtc::get();
  } catch (const Error& e) {
    GTEST_SKIP() << e.what();
  }
  std::vector<UOpProgram> programs = hand_built();
  programs.push_back(double_to_half());
  for (const UOpProgram& p : programs) {
    try {
      EXPECT_FALSE(nvrtc->compile(render("cuda", p), "compute_75").empty());
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

TEST(Hip, EveryHandBuiltProgramCompilesForAnAmdGpu) {
  if (!testing::hip_unavailable().empty()) GTEST_SKIP() << testing::hip_unavailable();
  std::vector<UOpProgram> programs = hand_built();
  programs.push_back(double_to_half());
  for (const UOpProgram& p : programs) EXPECT_EQ(testing::hip_errors(render("hip", p)), "") << p.name;
  // the check can fail: a kernel calling what the header does not declare does not compile
  EXPECT_NE(testing::hip_errors("#include <hip/hip_runtime.h>\nextern \"C\" __global__ void k(float* a) { a[0] = cbrtf(a[0]); }\n"), "");
}

TEST(Ptxas, AssemblesEveryHandBuiltProgram) {
  if (testing::ptxas().empty()) GTEST_SKIP() << "ptxas was not found (the CUDA toolkit is not installed)";
  std::vector<UOpProgram> programs = hand_built();
  programs.push_back(double_to_half());
  for (const UOpProgram& p : programs) EXPECT_EQ(testing::ptxas_errors(render("ptx", p), "sm_90"), "") << p.name;
}

TEST(Nvrtc, AFailedCompileShowsTheLogAndTheSource) {
  const Nvrtc* nvrtc = nullptr;
  try {
    nvrtc = &Nvrtc::get();
  } catch (const Error& e) {
    GTEST_SKIP() << e.what();
  }
  try {
    nvrtc->compile("extern \"C\" __global__ void k() { undefined_name = 1; }", "compute_75");
    ADD_FAILURE() << "compiled";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "compile");
    expect_contains(e.what(), {"undefined_name", "is undefined", "source:\nextern \"C\""});
  }
}

}  // namespace
}  // namespace tr
