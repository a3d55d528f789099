// The devices beyond CPU: which open and why the others cannot, tensors moved between devices,
// compile errors that show the driver's log, the compile cache, kernel timing, and the grid a
// kernel without local dims launches on.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include <fmt/format.h>

#include "core/runtime/buffer_pool.h"
#include "core/codegen/codegen.h"
#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/opt/heuristic.h"
#include "core/render/render.h"
#include "devices/disk_cache.h"
#include "devices/gpu_launch.h"
#include "tests/kernel_testing.h"
#include "tests/plugin_testing.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

using testing::values;

bool available(const std::string& dev) { return device_status(dev).empty(); }

TEST(Registry, ListsEveryDeviceAndSaysWhyOneCannotOpen) {
  std::vector<std::string> names;
  for (const DeviceEntry& e : registered_devices()) names.push_back(e.name);
  for (const char* want : {"CPU", "LLVM", "OPENCL", "CUDA", "METAL", "NV"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  EXPECT_EQ(device_status("CPU"), "");
  const std::string metal = device_status("METAL");
#ifdef __APPLE__
  EXPECT_NE(metal.find("no Metal runtime"), std::string::npos) << metal;
#else
  EXPECT_NE(metal.find("only on macOS"), std::string::npos) << metal;
#endif
  const std::string cuda = device_status("CUDA");
  if (!cuda.empty()) {
    EXPECT_TRUE(cuda.find("libcuda") != std::string::npos || cuda.find("CUDA") != std::string::npos ||
                cuda.find("NVRTC") != std::string::npos)
        << cuda;
    // a device that cannot open fails where it is used, with its reason, and nothing else breaks
    EXPECT_TRUE(testing::throws([] { testing::tensor({1, 2}).to("CUDA"); }, "device", cuda, true));
  }
  // NV needs the driver only: without one it says so as CUDA does
  const std::string nv = device_status("NV");
  if (!nv.empty()) {
    EXPECT_TRUE(nv.find("libcuda") != std::string::npos || nv.find("CUDA") != std::string::npos) << nv;
    EXPECT_EQ(nv.find("NVRTC"), std::string::npos) << nv;
    EXPECT_TRUE(testing::throws([] { testing::tensor({1, 2}).to("NV"); }, "device", nv, true));
  }
  EXPECT_TRUE(testing::has_values(testing::tensor({1, 2}).add(testing::tensor({3, 4})), {4, 6}));
}

TEST(Registry, GpuDevicesLaunchWithIds) {
  for (const char* dev : {"OPENCL", "CUDA", "NV"}) {
    if (!available(dev)) continue;
    const Target t = device(dev).target();
    EXPECT_TRUE(t.gpu) << dev;
    EXPECT_GT(t.local_memory, 0) << dev;
    EXPECT_GE(t.max_local, 1) << dev;
  }
  if (available("LLVM")) {
    EXPECT_FALSE(device("LLVM").target().gpu);
  }
}

class Moves : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() { testing::load_example_plugin(); }
};

// Host -> device -> CPU -> device -> CPU, with a kernel on each device between the copies.
TEST_P(Moves, BetweenDevices) {
  const std::string dev = GetParam();
  if (!available(dev)) GTEST_SKIP() << dev << " cannot open: " << device_status(dev);
  const Tensor x = testing::tensor({1, 2, 3, 4, 5, 6}, {2, 3}).to(dev);
  const Tensor y = x.mul(testing::tensor({2}).to(dev)).sum({{1}});
  EXPECT_EQ(y.device(), canonical_device(dev));
  const Tensor z = y.to("CPU").add(testing::tensor({1})).to(dev).neg().to("CPU");
  EXPECT_TRUE(testing::has_values(z, {-13, -31}));
}

// Operands on two devices are an error wherever ops meet, WHERE's three operands included (one reached
// an OpenCL kernel as a CPU buffer and crashed the driver).
TEST_P(Moves, NotImplicitly) {
  const std::string dev = GetParam();
  if (!available(dev)) GTEST_SKIP() << dev << " cannot open: " << device_status(dev);
  const Tensor here = testing::tensor({1, 0, 2}), there = testing::tensor({4, 5, 6}).to(dev);
  const std::string why = fmt::format("operands are on CPU and {}", canonical_device(dev));
  EXPECT_TRUE(testing::throws([&] { here.add(there); }, "device", why));
  EXPECT_TRUE(testing::throws([&] { here.where(there, here); }, "device", why));
  EXPECT_TRUE(testing::throws([&] { here.where(here, there); }, "device", why));
  EXPECT_TRUE(testing::has_values(there.where(there, there.neg()), {4, 5, 6}));
}

INSTANTIATE_TEST_SUITE_P(Devices, Moves, ::testing::Values("LLVM", "OPENCL", "QCOM", "CUDA", "NV", "WEBGPU", "PLUGCPU"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

UOpProgram copy_kernel() {
  UOpProgram p;
  p.name = "copy1";
  p.globals = {DType::Float32, DType::Float32};
  p.uops = {{.kind = UOpKind::DefineGlobal, .dtype = DType::Float32, .ptr = true, .buffer = 0, .writes = true},
            {.kind = UOpKind::DefineGlobal, .dtype = DType::Float32, .ptr = true, .buffer = 1},
            {.kind = UOpKind::Const, .dtype = DType::Int32, .value = int64_t{0}},
            {.kind = UOpKind::Load, .dtype = DType::Float32, .srcs = {1, 2}},
            {.kind = UOpKind::Store, .srcs = {0, 2, 3}}};
  return p;
}

// Nothing of the failed build reaches stderr on its own (PoCL's clang prints "1 error generated." there):
// it is all in the error.
TEST(OpenCL, ABuildErrorShowsTheDriversLogAndTheSource) {
  if (!available("OPENCL")) GTEST_SKIP() << "OPENCL cannot open: " << device_status("OPENCL");
  bool cached = false;
  const std::string bad = "__kernel void copy1(__global float* data0) { data0[0] = undefined_name; }\n";
  ::testing::internal::CaptureStderr();
  const auto build = [&] { device("OPENCL").compile(copy_kernel(), bad, cached); };
  EXPECT_TRUE(testing::throws(build, "compile", "OpenCL build failed"));
  EXPECT_TRUE(testing::throws(build, "compile", "undefined_name"));
  EXPECT_TRUE(testing::throws(build, "compile", "source:\n" + bad));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

// A kernel name that is no LLVM identifier makes IR that clang rejects.
TEST(Llvm, AClangErrorShowsItsMessageAndTheSource) {
  if (!available("LLVM")) GTEST_SKIP() << "LLVM cannot open: " << device_status("LLVM");
  UOpProgram p = copy_kernel();
  p.name = "bad name";
  bool cached = false;
  const auto compile = [&] { device("LLVM").compile(p, render("llvm", p), cached); };
  EXPECT_TRUE(testing::throws(compile, "compile", "error:"));
  EXPECT_TRUE(testing::throws(compile, "compile", "source:\ndefine void @bad name("));
}

// A compile runs with TMPDIR in the compile's own folder, which is removed on every way out (Ctrl-C
// included): gcc's and clang's temporary files go there, not into /tmp where a stopped compiler once
// left them.
TEST(HostCompilers, TheCompilersTemporaryFilesGoIntoTheCompilesFolder) {
  const TempDir work;
  std::string made;
  ASSERT_EQ(run_command("mktemp", made, work.path()), 0);
  EXPECT_TRUE(made.starts_with(work.path() + "/")) << made;
  std::string inherited;
  ASSERT_EQ(run_command("printf %s \"$TMPDIR\"", inherited), 0);
  const char* tmpdir = std::getenv("TMPDIR");
  EXPECT_EQ(inherited, tmpdir ? tmpdir : "");
}

// The host compilers' flags follow the Target's instruction set (isa_compiler_flags), never -march=native:
// a half kernel with its default opts compiles under each set this CPU's family knows, by the C and the
// LLVM devices. Their objects are loaded, never run, so every x86 set is tried on any x86 machine.
TEST(HostCompilers, AHalfKernelCompilesUnderEveryInstructionSet) {
#if defined(__x86_64__) || defined(__i386__)
  const std::vector<Isa> sets = {Isa::None, Isa::Sse, Isa::Avx2, Isa::Avx512};
#elif defined(__aarch64__)
  const std::vector<Isa> sets = {Isa::None, Isa::Neon};
#else
  GTEST_SKIP() << "no instruction set of this CPU's family is known";
#endif
  const Kernel relu = testing::only_kernel(testing::realized_random({4096}, 1).cast(DType::Float16).relu());
  const char* before = std::getenv("TINYREPL_ISA");
  const std::string saved = before ? before : "";
  for (const Isa isa : sets) {
    setenv("TINYREPL_ISA", std::string(isa_name(isa)).c_str(), 1);
    for (const DeviceEntry& e : registered_devices()) {
      // LLVM where clang is installed
      if ((e.name != "CPU" && e.name != "LLVM") || !available(e.name)) continue;
      std::unique_ptr<Device> d;
      try {
        d = e.open(0);
      } catch (const Error& err) {
        ADD_FAILURE() << e.name << " does not open under " << isa_name(isa) << ": " << err.what();
        continue;
      }
      ASSERT_EQ(d->target().isa, isa);
      const UOpProgram p = codegen(default_opts(relu, d->target()), d->target(), fmt::format("relu_half_{}", static_cast<int>(isa)));
      bool cached = false;
      try {
        d->compile(p, render(d->backend(), p), cached);
      } catch (const Error& err) {
        ADD_FAILURE() << e.name << " under " << isa_name(isa) << " (" << isa_compiler_flags(isa) << "): " << err.what();
      }
    }
  }
  if (before) setenv("TINYREPL_ISA", saved.c_str(), 1);
  else unsetenv("TINYREPL_ISA");
}

class Compiled : public ::testing::TestWithParam<std::string> {};

// A second compile of the same source comes from the on-disk cache, and the program still runs;
// the kernel's time is measured by the device (events on GPUs) and is positive.
TEST_P(Compiled, TheSecondTimeFromTheCacheAndTimed) {
  const std::string dev = GetParam();
  if (!available(dev)) GTEST_SKIP() << dev << " cannot open: " << device_status(dev);
  Device& d = device(dev);
  UOpProgram p = copy_kernel();
  // a name no earlier run has compiled, so that the first compile cannot come from the shared cache
  p.name = "copy_cached_" + std::to_string(std::random_device{}());
  const std::string src = render(d.backend(), p);
  bool first = true, second = false;
  d.compile(p, src, first);
  const auto program = d.compile(p, src, second);
  EXPECT_FALSE(first);
  EXPECT_TRUE(second);
  const BufferRef out = d.alloc(DType::Float32, 1), in = d.alloc(DType::Float32, 1);
  const float v = 4.5f;
  d.copyin(*in, &v);
  EXPECT_GT(program->run({out.get(), in.get()}, p.dims, {}), 0);
  float got = 0;
  d.copyout(&got, *out);
  EXPECT_EQ(got, 4.5f);
}

INSTANTIATE_TEST_SUITE_P(Devices, Compiled, ::testing::Values("LLVM", "OPENCL", "CUDA"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// The example plug-in as a device: its kernels run and are timed, a compile error carries the
// plug-in's message (the C compiler's log), and a library that is not a plug-in says why.
TEST(Plugin, RunsCompileErrorsAndBadLibraries) {
  testing::load_example_plugin();
  ASSERT_EQ(device_status(testing::kPluginDevice), "");
  Device& d = device(testing::kPluginDevice);
  EXPECT_EQ(d.backend(), "c");
  EXPECT_FALSE(d.target().gpu);
  const UOpProgram p = copy_kernel();
  bool cached = true;
  const auto program = d.compile(p, render("c", p), cached);
  EXPECT_FALSE(cached);
  const BufferRef out = d.alloc(DType::Float32, 1), in = d.alloc(DType::Float32, 1);
  const float v = 2.5f;
  d.copyin(*in, &v);
  EXPECT_GE(program->run({out.get(), in.get()}, p.dims, {}), 0);
  float got = 0;
  d.copyout(&got, *out);
  EXPECT_EQ(got, 2.5f);
  EXPECT_TRUE(testing::throws([&] { program->run({out.get()}, p.dims, {}); }, "device", "the kernel takes 2 buffers, not 1"));
  EXPECT_TRUE(testing::throws([&] { d.compile(p, "void copy1(int) { undefined_name; }", cached); }, "compile",
                              "PLUGCPU could not compile copy1: the C compiler failed:"));
  EXPECT_TRUE(testing::throws([&] { d.compile(p, "void copy1(int) { undefined_name; }", cached); }, "compile", "undefined_name"));
  EXPECT_TRUE(testing::throws([] { load_device_plugin("/nonexistent/plugin.so"); }, "device",
                              "cannot load the device plug-in /nonexistent/plugin.so"));
  EXPECT_TRUE(testing::throws([] { load_device_plugin("libm.so.6"); }, "device", "libm.so.6 is not a device plug-in: it has no tinyrepl_device_open"));
  EXPECT_TRUE(testing::throws([] { load_device_plugin(TINYREPL_CPU_PLUGIN); }, "device", "a device named PLUGCPU exists already"));
}

// Every device's freed buffers wait in a pool for the next allocation of their size, up to a limit.
TEST(BufferPool, GivesBackOneOfTheSizeAskedAndReleasesPastItsLimit) {
  std::vector<void*> released;
  int a = 0, b = 0, c = 0;
  {
    BufferPool pool(96, [&](void* p) { released.push_back(p); });
    pool.give(64, &a);
    pool.give(32, &b);
    pool.give(32, &c);  // past 96 bytes held: released at once
    EXPECT_EQ(released, std::vector<void*>{&c});
    EXPECT_EQ(pool.take(16), nullptr);
    EXPECT_EQ(pool.take(64), &a);
    EXPECT_EQ(pool.take(64), nullptr);
    pool.give(64, &a);
    pool.release_all();  // as an allocation that ran out of memory does before it tries again
    EXPECT_EQ(released.size(), 3u);
    EXPECT_EQ(pool.take(32), nullptr);
    pool.give(32, &b);
  }
  EXPECT_EQ(released.back(), &b) << "the pool releases what it holds when it goes";
}

// A device's allocation: from the pool first; when memory runs out, the pool is released and the
// allocation tried once more; the memory goes back to the pool with its last reference.
TEST(BufferPool, AcquireReleasesThePoolWhenMemoryRunsOut) {
  std::vector<void*> released;
  int held = 0, fresh = 0;
  const auto pool = std::make_shared<BufferPool>(64, [&](void* p) { released.push_back(p); });
  pool->give(32, &held);
  int asked = 0;
  const auto out_of_memory_once = [&](size_t) -> void* { return asked++ == 0 ? nullptr : &fresh; };
  {
    const std::shared_ptr<void> mem = BufferPool::acquire(pool, 16, out_of_memory_once);
    EXPECT_EQ(mem.get(), &fresh);
    EXPECT_EQ(asked, 2);
    EXPECT_EQ(released, std::vector<void*>{&held}) << "the pool was released before the second try";
  }
  EXPECT_EQ(pool->take(16), &fresh) << "the memory went back to the pool";
  EXPECT_EQ(BufferPool::acquire(pool, 16, [](size_t) -> void* { return nullptr; }), nullptr);
}

TEST(GpuLaunch, LocalDimsAreTheKernelsOwn) {
  const LaunchDims d{{3, 2, 1}, {4, 8, 1}};
  const Grid g = grid_for(d, true, 256, {1024, 1024, 64});
  EXPECT_EQ(g.groups, (std::array<int64_t, 3>{3, 2, 1}));
  EXPECT_EQ(g.threads, (std::array<int64_t, 3>{4, 8, 1}));
}

TEST(GpuLaunch, WithoutLocalDimsWorkgroupsDivideTheGrid) {
  Grid g = grid_for({{4096, 3, 1}, {1, 1, 1}}, false, 256, {1024, 1024, 64});
  EXPECT_EQ(g.threads, (std::array<int64_t, 3>{256, 1, 1}));
  EXPECT_EQ(g.groups, (std::array<int64_t, 3>{16, 3, 1}));
  // 7 * 9 threads leave 4 of the 256 for z, and no size from 2 to 4 divides 5
  g = grid_for({{7, 9, 5}, {1, 1, 1}}, false, 256, {1024, 1024, 64});
  EXPECT_EQ(g.threads, (std::array<int64_t, 3>{7, 9, 1}));
  EXPECT_EQ(g.groups, (std::array<int64_t, 3>{1, 1, 5}));
  g = grid_for({{4099, 1, 1}, {1, 1, 1}}, false, 256, {1024, 1024, 64});  // a prime
  EXPECT_EQ(g.threads[0], 1);
  EXPECT_EQ(g.groups[0], 4099);
}

}  // namespace
}  // namespace tr
