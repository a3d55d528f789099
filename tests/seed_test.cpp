// The seed example end to end: [1,2]·[3,4] as one kernel r_2, with its golden AST, UOps and C.
#include <gtest/gtest.h>

#include "core/context.h"
#include "core/linearize.h"
#include "core/realize.h"
#include "core/render/render.h"
#include "core/schedule.h"
#include "core/tensor.h"

namespace tr {
namespace {

Tensor ints(std::vector<int64_t> v) {
  HostData d(DType::Int32, static_cast<int64_t>(v.size()));
  for (size_t i = 0; i < v.size(); i++) d.set(static_cast<int64_t>(i), v[i]);
  return Tensor::from_host(d, {static_cast<int64_t>(v.size())});
}

class Seed : public ::testing::Test {
 protected:
  void SetUp() override { settings().noopt = true; }
  void TearDown() override { settings().noopt = false; }
};

TEST_F(Seed, DotProductIsOneKernelR2) {
  const Tensor a = ints({1, 2}), b = ints({3, 4});
  Tensor dot = a.mul(b).sum();
  const auto items = create_schedule({base_of(dot.node())});
  int kernels = 0;
  for (const auto& i : items) kernels += i.kind == ScheduleItem::Kind::Kernel;
  EXPECT_EQ(kernels, 1);
  EXPECT_EQ(std::get<int64_t>(dot.item()), 11);
  const KernelRecord& k = last_realization().runs.back().kernel;
  EXPECT_EQ(k.name, "r_2");
  EXPECT_EQ(print_ast(k.kernel.ast),
            "  0 ━┳ STORE MemBuffer(idx=0, dtype=int, st=(1,):(0,))\n"
            "  1  ┗━┳ SUM (0,)\n"
            "  2    ┗━┳ MUL\n"
            "  3      ┣━━ LOAD MemBuffer(idx=1, dtype=int, st=(2,):(1,))\n"
            "  4      ┗━━ LOAD MemBuffer(idx=2, dtype=int, st=(2,):(1,))\n");
  EXPECT_NE(k.source.find("for (int ridx0 = 0; ridx0 < 2; ridx0++)"), std::string::npos) << k.source;
}

}  // namespace
}  // namespace tr
