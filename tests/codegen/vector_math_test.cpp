// exp2, log2, sin and sqrt of whole vectors: the C renderer calls a helper per vector type, a loop over
// the lanes that GCC compiles to one call of glibc's vector function (the scalar function declared
// with the simd attribute; sqrt is an instruction and has none); OpenCL calls its built-ins on the
// vector. Values against the reference on every host device, nan and infinities included.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/codegen/codegen.h"
#include "core/runtime/device.h"
#include "core/opt/heuristic.h"
#include "core/render/render.h"
#include "tests/kernel_testing.h"

namespace tr {
namespace {

using namespace tr::testing;

TEST(VectorMath, CSpellsEachFunctionOnceForAWholeVector) {
  const Tensor x = realized_random({64, 64}, 1);
  const Target avx512 = cpu_target(Isa::Avx512, 2, {});
  struct Want {
    Tensor y;
    const char* fn;
    bool simd;
  };
  for (const Want& w : {Want{x.exp2(), "exp2", true}, Want{x.log2(), "log2", true}, Want{x.sin(), "sin", true},
                        Want{x.sqrt(), "sqrt", false}}) {
    const Kernel k = only_kernel(w.y);
    const std::string c = render("c", codegen(default_opts(k, avx512), avx512, "math"));
    // a helper per vector type, as wide as the kernel's vectors
    EXPECT_NE(c.find(fmt::format("r[i] = {}f(x[i]); return r; }}", w.fn)), std::string::npos) << c;
    EXPECT_EQ(c.find(fmt::format("__attribute__((simd(\"notinbranch\"))) float {}f(float);", w.fn)) != std::string::npos, w.simd) << c;
    EXPECT_NE(c.find(fmt::format(" = {}_float", w.fn)), std::string::npos) << c;
  }
  const Target gpu{.gpu = true, .local_memory = 48 << 10, .cores = 16, .max_local = 256, .vector_width = 4, .vector_alu = true};
  const std::string cl = render("opencl", codegen(default_opts(only_kernel(x.exp2()), gpu), gpu, "math"));
  EXPECT_NE(cl.find("float4 alu1 = exp2(val0)"), std::string::npos) << cl;
}

TEST(VectorMath, ValuesMatchTheReference) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> v{0.0, -0.0, 1.0, -1.0, 0.5, 100.0, -100.0, 1e-3, inf, -inf, nan, 3.25, 88.0, -150.0, 7.0, 2.0};
  for (int i = 0; i < 6; i++) v.insert(v.end(), v.begin(), v.begin() + 16);
  for (const char* dev : {"CPU", "LLVM", "OPENCL"}) {
    if (!device_status(dev).empty()) continue;
    const ScopedOpts opts(Opts::Default);
    const Tensor x = tensor(v, {7, 16}).to(dev);
    for (const Tensor& y : {x.exp2(), x.log2(), x.sin(), x.sqrt(), x.exp(), x.mul(x).add(x).exp().mul(x)})
      EXPECT_TRUE(matches_reference(y)) << dev;
  }
}

}  // namespace
}  // namespace tr
