// The linearizer's reuse of UOps around accumulators, on the CPU target whose upcasts become vectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/codegen/codegen.h"
#include "core/kernel/kernel.h"
#include "core/opt/heuristic.h"
#include "core/realize/realize.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

// The UOps of each kernel that realizing x runs.
std::vector<UOpProgram> programs_of(const Tensor& x) {
  std::vector<UOpProgram> out;
  for (const ScheduleItem& item : create_schedule({base_of(x.node())}))
    if (item.kind == ScheduleItem::Kind::Kernel) out.push_back(*lower(item, "CPU").program);
  return out;
}

// Where a UOp reads a pure value computed from an accumulator before an ASSIGN to that accumulator,
// it sees the old value: say where, or "" when no UOp does.
std::string stale_read(const std::vector<UOp>& uops) {
  std::vector<int> assigned_at(uops.size(), -1);  // per UOp reading an accumulator: that accumulator's next ASSIGN
  for (size_t i = 0; i < uops.size(); i++) {
    for (int s : uops[i].srcs)
      if (uops[s].kind == UOpKind::DefineAcc && uops[i].kind != UOpKind::Assign) {
        for (size_t j = i + 1; j < uops.size() && assigned_at[i] < 0; j++)
          if (uops[j].kind == UOpKind::Assign && uops[j].srcs[0] == s) assigned_at[i] = static_cast<int>(j);
      }
    for (int s : uops[i].srcs)
      if (assigned_at[s] >= 0 && static_cast<int>(i) > assigned_at[s])
        return fmt::format("UOp {} reads UOp {}, computed from an accumulator before its ASSIGN at {}\n{}", i, s,
                           assigned_at[s], print_uops(uops));
  }
  return "";
}

TEST(Linearizer, NoValueOfAnAccumulatorIsReusedPastItsAssign) {
  std::mt19937_64 rng(7);
  const Tensor ints = tensor(random_values(rng, 64 * 16, DType::Int32, -100, 100), {64, 16}, DType::Int32);
  const Tensor floats = tensor(random_values(rng, 64 * 16, DType::Float32, -1, 1), {64, 16});
  // a reduce of 4 is unrolled whole: no loop scope ends between the ASSIGN and the epilogue's reads
  const Tensor short_ints = tensor(random_values(rng, 4 * 16, DType::Int32, -100, 100), {4, 16}, DType::Int32);
  const Tensor short_floats = tensor(random_values(rng, 4 * 16, DType::Float32, -1, 1), {4, 16});
  const std::vector<int> rows{0}, cols{1};
  const std::vector<Tensor> reduces{ints.min(rows),          ints.max(rows),       ints.sum(rows),
                                    floats.max(rows),        floats.min(rows).exp(), floats.sum(rows).abs().sqrt(),
                                    ints.min(cols),          floats.max(cols),
                                    short_ints.min(rows),    short_floats.max(rows).exp()};
  bool vectors = false;
  for (const Tensor& r : reduces) {
    for (const UOpProgram& p : programs_of(r)) {
      EXPECT_EQ(stale_read(p.uops), "") << p.name;
      vectors = vectors || std::any_of(p.uops.begin(), p.uops.end(),
                                       [](const UOp& u) { return u.kind == UOpKind::DefineAcc && u.vec > 1; });
    }
    EXPECT_TRUE(matches_reference(r));
  }
  EXPECT_TRUE(vectors) << "the CPU's default opts keep some accumulators in vectors";
}

// A slice starting at any element is read with vector loads of the CPU's widths: none may assume that
// its first element is aligned to the vector's size (an aligned load faults there).
TEST(Linearizer, VectorsLoadAndStoreFromAnyElement) {
  for (DType t : {DType::Float32, DType::Int32, DType::Float64, DType::Int64}) {
    std::vector<double> v(80);
    for (size_t i = 0; i < v.size(); i++) v[i] = static_cast<double>(i);
    Tensor x = tensor(v, {80}, t);
    x.realize();
    for (int64_t from = 0; from < 8; from++) {
      // a plain copy: a load that is not folded into arithmetic is where an aligned move would be used
      const Tensor piece = x.shrink({Range{from, from + 64}}).contiguous();
      const std::vector<UOpProgram> ps = programs_of(piece);
      ASSERT_EQ(ps.size(), 1u);
      EXPECT_TRUE(std::any_of(ps[0].uops.begin(), ps[0].uops.end(),
                              [](const UOp& u) { return u.kind == UOpKind::Load && u.vec > 1; }))
          << "a vector load\n" << print_uops(ps[0].uops);
      const std::vector<double> want(v.begin() + from, v.begin() + from + 64);
      EXPECT_TRUE(has_values(piece, want)) << name(t) << " from " << from;
    }
  }
}

// A matmul's FLOPs are 2*M*N*K whether its sum of products accumulates with MULACC (AVX2) or with a
// multiply and an add (SSE): the roofline and GFLOPS compare kernels across targets.
TEST(Linearizer, AMulaccCountsAsTheMultiplyAndTheAddItFuses) {
  std::mt19937_64 rng(3);
  Tensor a = tensor(random_values(rng, 32 * 24, DType::Float32, -1, 1), {32, 24});
  Tensor b = tensor(random_values(rng, 24 * 16, DType::Float32, -1, 1), {24, 16});
  a.realize();
  b.realize();
  const std::vector<ScheduleItem> items = create_schedule({base_of(a.matmul(b).node())});
  ASSERT_EQ(items.size(), 1u);
  const Kernel k = Kernel::from_ast(items[0].ast);
  for (const Target& t : {cpu_target(Isa::Sse, 1, {}), cpu_target(Isa::Avx2, 1, {})}) {
    const UOpProgram p = codegen(default_opts(k, t), t, "matmul");
    const bool fused = std::any_of(p.uops.begin(), p.uops.end(),
                                   [](const UOp& u) { return u.kind == UOpKind::Alu && u.alu == Op::MulAcc; });
    EXPECT_EQ(fused, t.mulacc) << isa_name(t.isa);
    EXPECT_EQ(p.flops, 2 * 32 * 16 * 24) << isa_name(t.isa);
  }
}

}  // namespace
}  // namespace tr
