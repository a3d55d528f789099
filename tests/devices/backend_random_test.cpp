// The random-program suite: 200 generated tensor programs (shapes, dtypes, op chains, movement
// ops, reduces) realized on each device and compared with the reference evaluator. More checks
// need no device of their own: every kernel of every program renders in every backend, for the CPU
// and for a GPU target, its CUDA source compiles with NVRTC wherever libnvrtc exists, its PTX
// assembles with ptxas wherever the CUDA toolkit is installed, and its WGSL passes wgpu's validation
// wherever WEBGPU opens.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

#include <fmt/format.h>

#include "core/runtime/device.h"
#include "core/kernel/kernel.h"
#include "core/codegen/codegen.h"
#include "core/opt/heuristic.h"
#include "core/render/render.h"
#include "tests/random_program.h"
#include "core/schedule/schedule.h"
#include "devices/shims/gpu_shim.h"
#include "devices/nvrtc.h"
#include "tests/hip_testing.h"
#include "tests/plugin_testing.h"
#include "tests/ptxas_testing.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using testing::Opts;
using testing::ScopedOpts;

constexpr int kPrograms = 200;

using testing::agrees;
using testing::Generator;
using testing::lacks_dtype;
using testing::least_precise_float;

// Whether the language of `backend` lacks a dtype that p uses: Metal float64, WGSL every 64-bit type.
bool backend_lacks(const std::string& backend, const UOpProgram& p) {
  return std::any_of(p.uops.begin(), p.uops.end(), [&](const UOp& u) {
    return (backend == "metal" && u.dtype == DType::Float64) || (backend == "wgsl" && itemsize(u.dtype) == 8);
  });
}

std::vector<const ScheduleItem*> kernels(const std::vector<ScheduleItem>& items) {
  std::vector<const ScheduleItem*> out;
  for (const ScheduleItem& i : items)
    if (i.kind == ScheduleItem::Kind::Kernel) out.push_back(&i);
  return out;
}

const Target kCpuTarget{.gpu = false, .cores = 4};
const Target kGpuTarget{.gpu = true, .local_memory = 48 << 10, .cores = 1, .max_local = 256};

// Every kernel of the program lowered as a device of `target` would, default opts and none.
std::vector<UOpProgram> lowered(const Tensor& x, const Target& target) {
  std::vector<UOpProgram> out;
  const std::vector<ScheduleItem> items = create_schedule({base_of(x.node())});
  for (const ScheduleItem* item : kernels(items)) {
    const Kernel k = Kernel::from_ast(item->ast);
    out.push_back(codegen(k, target, k.base_name()));
    out.push_back(codegen(default_opts(k, target), target, k.base_name()));
  }
  return out;
}

using Param = std::tuple<std::string, int>;

class RandomProgram : public ::testing::TestWithParam<Param> {
 protected:
  static void SetUpTestSuite() {
    register_device({kMetalShim, open_metal_shim});
    register_device({kHipShim, open_hip_shim});
    testing::load_example_plugin();
  }
};

TEST_P(RandomProgram, MatchesReference) {
  const auto& [device, seed] = GetParam();
  if (const std::string why = device_status(device); !why.empty()) GTEST_SKIP() << device << " cannot open: " << why;
  // even seeds run with the default opts, odd ones with none
  const ScopedOpts opts(seed % 2 == 0 ? Opts::Default : Opts::Noopt);
  Generator gen(seed, device);
  const Tensor x = gen.build();
  SCOPED_TRACE("program:\n" + gen.text());
  try {
    const HostData expected = reference_eval(x.node());
    EXPECT_TRUE(agrees(x.data(), expected, least_precise_float(x.node())));
  } catch (const Error& e) {
    if (lacks_dtype(e)) GTEST_SKIP() << device << ": " << std::string(e.what()).substr(0, std::string(e.what()).find('\n'));
    FAIL() << e.kind() << " error: " << e.what();
  }
}

class RandomSource : public ::testing::TestWithParam<int> {};

TEST_P(RandomSource, RendersInEveryBackend) {
  Generator gen(GetParam(), "CPU");
  const Tensor x = gen.build();
  SCOPED_TRACE("program:\n" + gen.text());
  for (const Target& target : {kCpuTarget, kGpuTarget}) {
    for (const UOpProgram& p : lowered(x, target)) {
      for (const std::string& backend : backends()) {
        try {
          const std::string src = render(backend, p);
          EXPECT_NE(src.find(p.name), std::string::npos) << backend << " source lacks the kernel's name:\n" << src;
        } catch (const Error& e) {
          const bool expected = backend_lacks(backend, p) && lacks_dtype(e);
          EXPECT_TRUE(expected) << backend << " failed on " << p.name << ": " << e.what() << "\n" << print_uops(p.uops);
        }
      }
    }
  }
}

TEST_P(RandomSource, CudaCompilesWithNvrtc) {
  const Nvrtc* nvrtc = nullptr;
  try {
    nvrtc = &Nvrtc::get();
  } catch (const Error& e) {
    GTEST_SKIP() << e.what();
  }
  const std::vector<int> archs = nvrtc->supported_archs();
  ASSERT_FALSE(archs.empty());
  const std::string arch = fmt::format("sm_{}", *std::max_element(archs.begin(), archs.end()));
  Generator gen(GetParam(), "CPU");
  const Tensor x = gen.build();
  SCOPED_TRACE("program:\n" + gen.text());
  for (const UOpProgram& p : lowered(x, kGpuTarget)) {
    try {
      EXPECT_FALSE(nvrtc->compile(render("cuda", p), arch).empty());
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

// wgpu's WGSL validator (naga, inside wgpu-native) takes every kernel lowered for a GPU, where WEBGPU opens.
TEST_P(RandomSource, WgslPassesWgpuValidation) {
  if (const std::string why = device_status("WEBGPU"); !why.empty()) GTEST_SKIP() << "WEBGPU cannot open: " << why;
  Generator gen(GetParam(), "CPU");
  const Tensor x = gen.build();
  SCOPED_TRACE("program:\n" + gen.text());
  for (const UOpProgram& p : lowered(x, kGpuTarget)) {
    if (backend_lacks("wgsl", p)) continue;
    try {
      bool cached = false;
      device("WEBGPU").compile(p, render("wgsl", p), cached);
    } catch (const Error& e) {
      ADD_FAILURE() << p.name << ": " << e.what();
    }
  }
}

TEST_P(RandomSource, PtxAssemblesWithPtxas) {
  if (testing::ptxas().empty()) GTEST_SKIP() << "ptxas was not found (the CUDA toolkit is not installed)";
  Generator gen(GetParam(), "CPU");
  const Tensor x = gen.build();
  SCOPED_TRACE("program:\n" + gen.text());
  for (const Target& target : {kCpuTarget, kGpuTarget})
    for (const UOpProgram& p : lowered(x, target)) EXPECT_EQ(testing::ptxas_errors(render("ptx", p), "sm_90"), "");
}

TEST_P(RandomSource, HipCompilesForAnAmdGpu) {
  if (!testing::hip_unavailable().empty()) GTEST_SKIP() << testing::hip_unavailable();
  Generator gen(GetParam(), "CPU");
  const Tensor x = gen.build();
  SCOPED_TRACE("program:\n" + gen.text());
  for (const UOpProgram& p : lowered(x, kGpuTarget)) EXPECT_EQ(testing::hip_errors(render("hip", p)), "") << p.name;
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  return fmt::format("{}_{}", std::get<0>(info.param), std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Programs, RandomProgram,
                         ::testing::Combine(::testing::Values("CPU", "LLVM", "OPENCL", "QCOM", "METALSHIM", "HIPSHIM", "CUDA", "NV", "WEBGPU",
                                                              "PLUGCPU"),
                                            ::testing::Range(0, kPrograms)),
                         param_name);
INSTANTIATE_TEST_SUITE_P(Programs, RandomSource, ::testing::Range(0, kPrograms));

}  // namespace
}  // namespace tr
