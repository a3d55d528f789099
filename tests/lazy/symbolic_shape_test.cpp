// Symbolic sizes: a Variable bound to a value in a shape gives one kernel that serves every value.
// Each device here runs an element-wise kernel and a reduce for n = 1..64: one kernel source for all
// of them (so one compile), the Variable a scalar argument, and values equal to the reference
// evaluator's for every n.
#include <gtest/gtest.h>

#include <random>
#include <map>
#include <set>

#include "core/codegen/codegen.h"
#include "core/base/context.h"
#include "core/runtime/device.h"
#include "core/realize/realize.h"
#include "core/render/render.h"
#include "core/lazy/symbolic_shape.h"
#include "devices/shims/gpu_shim.h"
#include "devices/nvrtc.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

bool available(const std::string& dev) { return device_status(dev).empty(); }

// The one kernel of the last realization: its name and its source.
const KernelRecord& only_kernel() {
  const std::vector<RunRecord>& runs = last_realization().runs;
  EXPECT_EQ(runs.size(), 1u);
  return runs.back().kernel;
}

class SymbolicKernels : public ::testing::TestWithParam<std::string> {
 protected:
  // the Metal renderer's kernels run on the host through the shim (devices/shims/metal)
  static void SetUpTestSuite() {
    register_device({kMetalShim, open_metal_shim});
    register_device({kHipShim, open_hip_shim});
  }

  void SetUp() override {
    if (!available(GetParam())) GTEST_SKIP() << GetParam() << " cannot open: " << device_status(GetParam());
    std::mt19937_64 rng(12);
    x_ = testing::tensor(testing::random_values(rng, 64 * 4, DType::Float32, -2, 2), {64, 4}).to(GetParam());
    x_.realize();
  }

  // Runs make(v) for v = 1..64: each realizes one kernel, equal to the reference; returns the sources seen.
  template <typename Make>
  std::set<std::string> sources_for_every_value(const Make& make) {
    std::set<std::string> sources;
    for (int64_t v = 1; v <= 64; v++) {
      const Tensor y = make(v);
      EXPECT_TRUE(testing::matches_reference(y)) << "n = " << v;
      const KernelRecord& k = only_kernel();
      kernels_.push_back(k.kernel);
      sources.insert(*k.source);
      EXPECT_EQ(k.vars, std::vector<int32_t>{static_cast<int32_t>(v)});
    }
    return sources;
  }

  std::vector<std::shared_ptr<const Kernel>> kernels_;  // the kernel of each value, in order
  Tensor x_ = Tensor::zeros({1});
  const ExprRef n_ = make_variable("n", 1, 64);
};

TEST_P(SymbolicKernels, ElementwiseCompilesOnceForEveryValue) {
  const std::set<std::string> sources = sources_for_every_value([&](int64_t v) {
    const Tensor a = x_.shrink_to({n_, nullptr}, {v, 4});
    EXPECT_EQ(a.shape(), (Shape{v, 4}));
    return a.mul(a).add(Tensor::scalar_like(a, 1.5)).exp2();
  });
  EXPECT_EQ(sources.size(), 1u) << fmt::format("{}", fmt::join(sources, "\n----\n"));
  EXPECT_NE(sources.begin()->find("E_n_4"), std::string::npos) << *sources.begin();
}

TEST_P(SymbolicKernels, ReduceCompilesOnceForEveryValue) {
  const std::set<std::string> sources = sources_for_every_value([&](int64_t v) {
    const Tensor a = x_.shrink_to({n_, nullptr}, {v, 4});
    return a.mul(a).sum(std::vector<int>{0});
  });
  EXPECT_EQ(sources.size(), 1u);
  EXPECT_NE(sources.begin()->find("r_4_n"), std::string::npos) << *sources.begin();
}

TEST_P(SymbolicKernels, CreationFromASymbolicShape) {
  const std::set<std::string> sources = sources_for_every_value([&](int64_t v) {
    const Tensor ones = Tensor::ones({v, 4}, DType::Float32, GetParam()).bind_sizes({n_, nullptr});
    return ones.mul(Tensor::scalar_like(ones, 3.0)).sum(std::vector<int>{0});
  });
  EXPECT_EQ(sources.size(), 1u) << fmt::format("{}", fmt::join(sources, "\n----\n"));
}

// The default opts split the dims of a known size (the matmul's 16 columns, over threads, vector
// lanes or a workgroup) and keep the symbolic one whole, so one program still serves every value.
TEST_P(SymbolicKernels, DefaultOptsSplitOnlyTheFixedDims) {
  std::mt19937_64 rng(5);
  Tensor w = testing::tensor(testing::random_values(rng, 4 * 16, DType::Float32, -2, 2), {4, 16}).to(GetParam());
  w.realize();
  const std::set<std::string> sources =
      sources_for_every_value([&](int64_t v) { return x_.shrink_to({n_, nullptr}, {v, 4}).matmul(w); });
  EXPECT_EQ(sources.size(), 1u) << fmt::format("{}", fmt::join(sources, "\n----\n"));
  std::set<std::string> opts;
  for (const std::shared_ptr<const Kernel>& k : kernels_) {
    std::string applied;
    for (const Opt& o : k->opts) applied += o.str();
    opts.insert(applied);
    for (const Dim& d : k->dims) EXPECT_TRUE(!d.sym || (d.role == DimRole::Global && d.size == 64)) << applied;
  }
  ASSERT_EQ(opts.size(), 1u);
  EXPECT_FALSE(opts.begin()->empty());
}

// A size that grows with the Variable (2 * m - 1 rows): the kernels loop (or launch) to it, one
// program each for every value of m.
TEST_P(SymbolicKernels, ASizeThatGrowsWithTheVariableCompilesOnce) {
  const ExprRef m = make_variable("m", 1, 32);
  const ExprRef rows = scaled_size(m, 2, -1);
  std::set<std::string> sources;
  for (int64_t v = 1; v <= 32; v++) {
    const Tensor a = x_.shrink_to({rows, nullptr}, {2 * v - 1, 4});
    const Tensor e = a.mul(a).add(Tensor::scalar_like(a, 0.5));
    EXPECT_TRUE(testing::matches_reference(e)) << "m = " << v;
    sources.insert(*only_kernel().source);
    EXPECT_EQ(only_kernel().vars, std::vector<int32_t>{static_cast<int32_t>(v)});
    EXPECT_TRUE(testing::matches_reference(a.sum(std::vector<int>{0}))) << "m = " << v;
    sources.insert(*only_kernel().source);
  }
  EXPECT_EQ(sources.size(), 2u) << fmt::format("{}", fmt::join(sources, "\n----\n"));
}

// BEAM times a symbolic kernel's candidates with the Variable's value that its buffers are sized for.
TEST(SymbolicShape, BeamSearchesASymbolicKernel) {
  const Settings saved = settings();
  settings().beam = 2;
  std::mt19937_64 rng(9);
  Tensor x = testing::tensor(testing::random_values(rng, 64 * 32, DType::Float32, -2, 2), {64, 32});
  x.realize();
  const ExprRef n = make_variable("n", 1, 64);
  for (const int64_t v : {5, 64}) {
    const Tensor y = x.shrink_to({n, nullptr}, {v, 32}).mul(x.shrink_to({n, nullptr}, {v, 32})).sum(std::vector<int>{0});
    EXPECT_TRUE(testing::matches_reference(y)) << "n = " << v;
    EXPECT_EQ(only_kernel().vars, std::vector<int32_t>{static_cast<int32_t>(v)});
  }
  settings() = saved;
}

INSTANTIATE_TEST_SUITE_P(Devices, SymbolicKernels, ::testing::Values("CPU", "LLVM", "OPENCL", "METALSHIM", "HIPSHIM", "CUDA"),
                         [](const auto& info) { return info.param; });

// The kernel of a symbolic reduce, lowered for a GPU and rendered for each backend: the Variable is a
// parameter and the loop bound. CUDA's source compiles with NVRTC wherever it exists.
TEST(SymbolicShape, EveryBackendTakesTheVariableAsAnArgument) {
  const ExprRef n = make_variable("n", 1, 64);
  const Tensor a = Tensor::ones({64, 8}).contiguous().realize().shrink_to({n, nullptr}, {5, 8});
  a.sum(std::vector<int>{0}).realize();
  const KernelRecord& rec = only_kernel();
  EXPECT_EQ(rec.kernel->vars.size(), 1u);
  const Target gpu{.gpu = true, .local_memory = 48 << 10, .cores = 1, .max_local = 256};
  const UOpProgram p = codegen(*rec.kernel, gpu, rec.name);
  EXPECT_EQ(p.vars, std::vector<std::string>{"n"});
  const std::map<std::string, std::vector<std::string>> expected{
      {"c", {"const int n", "ridx0 < n"}},
      {"llvm", {"i32 %n", "icmp slt i32 %ridx0.next, %n"}},
      {"opencl", {"const int n", "ridx0 < n"}},
      {"cuda", {"const int n", "ridx0 < n"}},
      {"metal", {"constant int& n [[buffer(2)]]", "ridx0 < n"}},
      {"ptx", {".param .u64 data1,\n\t.param .u32 n\n", "ld.param.u32 %r", "[n]"}},
  };
  for (const auto& [backend, parts] : expected) {
    const std::string src = render(backend, p);
    for (const std::string& part : parts) EXPECT_NE(src.find(part), std::string::npos) << backend << ":\n" << src;
  }
  const Nvrtc* nvrtc = nullptr;
  try {
    nvrtc = &Nvrtc::get();
  } catch (const Error& e) {
    GTEST_SKIP() << e.what();
  }
  EXPECT_FALSE(nvrtc->compile(render("cuda", p), "compute_75").empty());
}

TEST(SymbolicShape, SizesThatGrowWithAVariable) {
  const ExprRef n = make_variable("n", 1, 8);
  const ExprRef size = scaled_size(scaled_size(n, 2, 0), 1, 3);  // 2n + 3
  EXPECT_EQ(size_variable(size)->name, "n");
  EXPECT_EQ(affine_of(size).scale, 2);
  EXPECT_EQ(affine_of(size).offset, 3);
  EXPECT_EQ(affine_of(n).scale, 1);
  EXPECT_EQ(variable_value(size, 9), 3);
  EXPECT_EQ((std::pair{size->min, size->max}), (std::pair<int64_t, int64_t>{5, 19}));
  EXPECT_THROW(variable_value(size, 10), Error);  // no n makes 2n + 3 even
  EXPECT_THROW(variable_value(size, 21), Error);  // n = 9 is past its bounds
  EXPECT_THROW(scaled_size(n, 1, -1), Error);     // 0 when n is 1
  EXPECT_THROW(scaled_size(n, -1, 10), Error);    // shrinks as n grows
  // a kernel's trackers hold the largest size, and the Variable's value travels beside them
  VarVals vals;
  const ShapeTracker st = unbind(ShapeTracker::contiguous({9, 4}, {size, nullptr}), vals);
  EXPECT_EQ(st.shape(), (Shape{19, 4}));
  EXPECT_EQ(vals, (VarVals{{"n", 3}}));
  EXPECT_EQ(rebound_shape({9, 4}, {size, nullptr}, {{"n", 5}}), (Shape{13, 4}));
}

TEST(SymbolicShape, BindOutOfRangeIsAnError) {
  const ExprRef n = make_variable("n", 2, 8);
  EXPECT_TRUE(testing::throws([&] { Tensor::ones({9}).bind_sizes({n}); }, "value", "cannot bind n to 9: it must lie in [2, 8]"));
  EXPECT_TRUE(testing::throws([&] { Tensor::ones({1}).bind_sizes({n}); }, "value", "cannot bind n to 1"));
}

TEST(SymbolicShape, VariableBoundsAndNamesAreChecked) {
  EXPECT_TRUE(testing::throws([] { make_variable("n", 0, 4); }, "value", "needs 1 <= lo < hi"));
  EXPECT_TRUE(testing::throws([] { make_variable("n", 4, 4); }, "value", "needs 1 <= lo < hi"));
  EXPECT_TRUE(testing::throws([] { make_variable("gidx0", 1, 4); }, "value", "must be an identifier"));
  EXPECT_TRUE(testing::throws([] { make_variable("int", 1, 4); }, "value", "must be an identifier"));
}

TEST(SymbolicShape, MovementOpsThatWouldDependOnTheValueAreRefused) {
  const ExprRef n = make_variable("n", 1, 8);
  const Tensor a = Tensor::ones({3, 4}).contiguous().bind_sizes({n, nullptr});
  EXPECT_TRUE(testing::throws([&] { a.flip({0}).realize(); }, "shape", "cannot flip the symbolic dim 0"));
  EXPECT_TRUE(testing::throws([&] { a.pad({{1, 0}, {0, 0}}).realize(); }, "shape", "cannot pad the symbolic dim 0"));
  // a permute keeps the Variable on its dim
  EXPECT_EQ(a.permute({1, 0}).symbolic_sizes().at(1).get(), n.get());
}

TEST(SymbolicShape, TwoVariablesOnOneDimAreAnError) {
  const ExprRef n = make_variable("n", 1, 8), m = make_variable("m", 1, 8);
  const Tensor a = Tensor::ones({3}).contiguous().bind_sizes({n});
  const Tensor b = Tensor::ones({3}).contiguous().bind_sizes({m});
  EXPECT_TRUE(testing::throws([&] { a.add(b); }, "shape", "dim 0 is n in one operand and m in another"));
}

}  // namespace
}  // namespace tr
