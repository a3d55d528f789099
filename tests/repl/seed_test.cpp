// The seed example end to end: [1,2]·[3,4] as one kernel r_2, with its golden AST, UOps and C.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/base/context.h"
#include "core/codegen/codegen.h"
#include "core/kernel/ast.h"
#include "core/realize/realize.h"
#include "core/render/render.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"
#include "tests/dot_product_golden.h"
#include "viz/stages.h"

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
  EXPECT_EQ(print_ast(k.kernel->ast),
            "  0 ━┳ STORE MemBuffer(idx=0, dtype=int, st=(1,):(0,))\n"
            "  1  ┗━┳ SUM (0,)\n"
            "  2    ┗━┳ MUL\n"
            "  3      ┣━━ LOAD MemBuffer(idx=1, dtype=int, st=(2,):(1,))\n"
            "  4      ┗━━ LOAD MemBuffer(idx=2, dtype=int, st=(2,):(1,))\n");
  EXPECT_NE(k.source->find("for (int ridx0 = 0; ridx0 < 2; ridx0++)"), std::string::npos) << *k.source;
  EXPECT_EQ(print_uops(k.program->uops),
            testing::kDotProductNooptUops);
  // two multiplies and two adds over two elements; 3 buffers of 2, 2 and 1 int
  EXPECT_EQ(k.program->flops, 4);
  EXPECT_EQ(k.program->bytes, 20);
}

// :ast K lazyop: the seed notes' LazyOp(...) print of the same kernel, line for line.
TEST_F(Seed, TheAstInTheNotesLazyOpForm) {
  Tensor dot = ints({1, 2}).mul(ints({3, 4})).sum();
  dot.realize();
  const std::vector<RunRecord>& runs = last_realization().runs;
  const auto kernel = std::find_if(runs.begin(), runs.end(), [](const RunRecord& r) { return !r.is_copy; });
  ASSERT_NE(kernel, runs.end());
  const KernelRecord& k = kernel->kernel;
  EXPECT_EQ(print_lazyop(k.kernel->ast),
            "LazyOp(MetaOps.KERNEL, arg=None, src=(\n"
            "  LazyOp(BufferOps.STORE, arg=MemBuffer(idx=0, dtype=dtypes.int, st=ShapeTracker(views=(View(shape=(1,), strides=(0,), offset=0, mask=None, contiguous=True),))), src=(\n"
            "    LazyOp(ReduceOps.SUM, arg=(0,), src=(\n"
            "      LazyOp(BinaryOps.MUL, arg=None, src=(\n"
            "        LazyOp(BufferOps.LOAD, arg=MemBuffer(idx=1, dtype=dtypes.int, st=ShapeTracker(views=(View(shape=(2,), strides=(1,), offset=0, mask=None, contiguous=True),))), src=()),\n"
            "        LazyOp(BufferOps.LOAD, arg=MemBuffer(idx=2, dtype=dtypes.int, st=ShapeTracker(views=(View(shape=(2,), strides=(1,), offset=0, mask=None, contiguous=True),))), src=()),)),)),)),))\n");
}

// Under NOOPT no pass changes the dot product: each heading after the first says so.
TEST_F(Seed, NooptPassesChangeNothing) {
  ints({1, 2}).mul(ints({3, 4})).sum().item();
  const KernelRecord& k = last_realization().runs.back().kernel;
  const std::vector<PassSnapshot> passes = lowering_passes(k);
  ASSERT_EQ(passes.size(), 4u);
  for (const PassSnapshot& s : passes) EXPECT_EQ(print_uops(s.uops), print_uops(k.program->uops)) << s.pass;
  for (size_t i = 1; i < passes.size(); i++)
    EXPECT_NE(pass_heading(passes, i).find(", unchanged ──"), std::string::npos) << pass_heading(passes, i);
}

// Each lowering pass of the dot product with the default opts (the reduce of 2 unrolled whole), as
// DEBUG 6 and `:uops K all` show it: the loops pass walks the unrolled dim as a RANGE, expand makes
// one copy of the body per value and chains them into the accumulator; group and simplify find
// nothing to rewrite.
TEST_F(Seed, EveryPassOfTheDotProduct) {
  settings().noopt = false;
  ints({1, 2}).mul(ints({3, 4})).sum().item();
  EXPECT_EQ(passes_text(lowering_passes(last_realization().runs.back().kernel)),
            "── after pass 1 of 4, loops: 14 uops ──\n"
            "   0 DEFINE_GLOBAL  : ptr.int        []          (0, 'data0', True)\n"
            "   1 DEFINE_GLOBAL  : ptr.int        []          (1, 'data1', False)\n"
            "   2 DEFINE_GLOBAL  : ptr.int        []          (2, 'data2', False)\n"
            "   3 DEFINE_ACC     : int            []          0\n"
            "   4 CONST          : int            []          0\n"
            "   5 CONST          : int            []          2\n"
            "   6 RANGE          : int            [4, 5]      'unidx0'\n"
            "   7 LOAD           : int            [1, 6]      None\n"
            "   8 LOAD           : int            [2, 6]      None\n"
            "   9 ALU            : int            [7, 8]      MUL\n"
            "  10 ALU            : int            [3, 9]      ADD\n"
            "  11 ASSIGN         : int            [3, 10]     None\n"
            "  12 ENDRANGE       :                [6]         None\n"
            "  13 STORE          :                [0, 4, 3]   None\n"
            "── after pass 2 of 4, expand: 16 uops ──\n"
            "   0 DEFINE_GLOBAL  : ptr.int        []          (0, 'data0', True)\n"
            "   1 DEFINE_GLOBAL  : ptr.int        []          (1, 'data1', False)\n"
            "   2 DEFINE_GLOBAL  : ptr.int        []          (2, 'data2', False)\n"
            "   3 CONST          : int            []          0\n"
            "   4 LOAD           : int            [1, 3]      None\n"
            "   5 LOAD           : int            [2, 3]      None\n"
            "   6 ALU            : int            [4, 5]      MUL\n"
            "   7 CONST          : int            []          1\n"
            "   8 LOAD           : int            [1, 7]      None\n"
            "   9 LOAD           : int            [2, 7]      None\n"
            "  10 ALU            : int            [8, 9]      MUL\n"
            "  11 DEFINE_ACC     : int            []          0\n"
            "  12 ALU            : int            [11, 6]     ADD\n"
            "  13 ALU            : int            [12, 10]    ADD\n"
            "  14 ASSIGN         : int            [11, 13]    None\n"
            "  15 STORE          :                [0, 3, 11]  None\n"
            "── after pass 3 of 4, group: 16 uops, unchanged ──\n"
            "── after pass 4 of 4, simplify: 16 uops, unchanged ──\n");
}

TEST_F(Seed, DefaultOptsKeepTheValue) {
  settings().noopt = false;
  EXPECT_EQ(std::get<int64_t>(ints({1, 2}).mul(ints({3, 4})).sum().item()), 11);
}

}  // namespace
}  // namespace tr
