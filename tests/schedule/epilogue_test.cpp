// What follows a reduce in its kernel: a relu's `where(0 < x, x, 0)` becomes `max(0, x)` (the same
// values, nan and -0.0 included), so a matmul with a relu keeps its vectors; a vector MAX is one
// whole-vector op in C and OpenCL; and a load that only the code after a reduce reads (a bias) is
// placed after the reduce's loop, not held through it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "core/codegen/codegen.h"
#include "core/runtime/device.h"
#include "core/kernel/kernel.h"
#include "core/opt/heuristic.h"
#include "core/render/render.h"
#include "tests/kernel_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

bool has_op(const Kernel& k, Op op) {
  return find_node(k.ast, [&](const AstNode& n) { return n.op == AstOp::Alu && n.alu == op; }) != nullptr;
}

TEST(Epilogue, AReluIsAMaxInTheKernel) {
  const Tensor x = realized_random({16, 16}, 1);
  const Kernel relu = only_kernel(x.relu());
  EXPECT_TRUE(has_op(relu, Op::Max));
  EXPECT_FALSE(has_op(relu, Op::Where));
  EXPECT_FALSE(has_op(relu, Op::CmpLt));
  EXPECT_TRUE(vector_values(relu));
  // where(a < x, x, a) for another a as well; a where of another shape stays one
  EXPECT_TRUE(has_op(only_kernel(Tensor::full({16, 16}, 0.5).lt(x).where(x, Tensor::full({16, 16}, 0.5))), Op::Max));
  const Kernel leaky = only_kernel(x.leaky_relu(0.1));
  EXPECT_TRUE(has_op(leaky, Op::Where));
  EXPECT_FALSE(has_op(leaky, Op::Max));
}

// nan and -0.0 through the relu on every host device: the reference's where gives +0.0 for both.
TEST(Epilogue, AReluKeepsTheWheresValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> in{nan, -0.0, 0.0, -1.5, 2.5, -nan, static_cast<double>(1e-30f), -1e30};
  for (const char* dev : {"CPU", "LLVM", "OPENCL"}) {
    if (!device_status(dev).empty()) continue;
    std::vector<double> many;
    for (int i = 0; i < 16; i++) many.insert(many.end(), in.begin(), in.end());
    const std::vector<double> out = values(tensor(many, {8, 16}).to(dev).relu());
    for (size_t i = 0; i < out.size(); i++) {
      const double want = in[i % in.size()] > 0 ? in[i % in.size()] : 0.0;
      EXPECT_EQ(out[i], want) << dev << " at " << i;
      EXPECT_FALSE(std::signbit(out[i])) << dev << " at " << i;
    }
  }
}

// The matmul's register tile with a relu after it: the C source takes the max of whole vectors (one
// compare and masked move, instead of lanes picked apart, which made GCC keep the accumulators as
// scalars); OpenCL's selects with a vector condition; the values are the reference's.
TEST(Epilogue, AMatmulWithAReluKeepsItsVectors) {
  const Kernel k = only_kernel(realized_random({64, 64}, 2).matmul(realized_random({64, 64}, 3)).relu());
  const Target avx512 = cpu_target(Isa::Avx512, 2, {});
  const std::string c = render("c", codegen(default_opts(k, avx512), avx512, "linear"));
  EXPECT_NE(c.find("static inline float16 max_float16(float16 a, float16 b)"), std::string::npos) << c;
  EXPECT_NE(c.find("max_float16(alu"), std::string::npos) << c;
  EXPECT_EQ(c.find("?"), c.find("? b[i] : a[i]")) << c;  // the helper's is the only ?:
  const Target gpu{.gpu = true, .local_memory = 48 << 10, .cores = 16, .max_local = 256, .vector_width = 4, .vector_alu = true};
  const Kernel relu = only_kernel(realized_random({64, 64}, 4).relu());
  const std::string cl = render("opencl", codegen(default_opts(relu, gpu), gpu, "relu"));
  EXPECT_EQ(std::count(cl.begin(), cl.end(), '?'), 1) << cl;
  EXPECT_NE(cl.find("float4"), std::string::npos) << cl;
  for (const char* dev : {"CPU", "LLVM", "OPENCL"}) {
    if (!device_status(dev).empty()) continue;
    const Tensor a = realized_random({64, 48}, 5, dev), w = realized_random({48, 80}, 6, dev), b = realized_random({80}, 7, dev);
    EXPECT_TRUE(matches_reference(a.matmul(w).add(b).relu())) << dev;
  }
}

// The bias's load comes after the end of the reduce's loop.
TEST(Epilogue, ABiasIsLoadedAfterTheReduceLoop) {
  const Kernel k = only_kernel(
      realized_random({64, 64}, 8).matmul(realized_random({64, 64}, 9)).add(realized_random({64}, 10)));
  const Target avx2 = cpu_target(Isa::Avx2, 2, {});
  const std::vector<UOp> uops = codegen(default_opts(k, avx2), avx2, "linear").uops;
  int reduce_end = -1, bias_load = -1;
  for (int i = 0; i < static_cast<int>(uops.size()); i++) {
    const UOp& u = uops[i];
    if (u.kind == UOpKind::EndRange && uops[u.srcs[0]].range == RangeKind::Reduce) reduce_end = i;
    if (u.kind == UOpKind::Load && uops[u.srcs[0]].kind == UOpKind::DefineGlobal && uops[u.srcs[0]].buffer == 3 &&
        bias_load < 0)
      bias_load = i;
  }
  ASSERT_GE(reduce_end, 0);
  EXPECT_GT(bias_load, reduce_end) << print_uops(uops);
}

}  // namespace
}  // namespace tr
