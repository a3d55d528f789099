// The WEBGPU device on its own, with hand-written WGSL (the renderer has tests of its own): copies of
// sizes WebGPU does not allow as they are (not a multiple of 4 bytes, empty), the bindings and the grid
// of kernels with and without local ids and with a Variable, more storage buffers than WebGPU's
// default limit, and errors that come back as tr::Error instead of wgpu-native's abort. Skipped where
// WEBGPU cannot open (no wgpu-native, no Vulkan driver).
#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "core/runtime/device.h"
#include "core/base/error.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

class WebGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const std::string why = device_status("WEBGPU"); !why.empty()) GTEST_SKIP() << "WEBGPU cannot open: " << why;
  }
  static Device& dev() { return device("WEBGPU"); }
};

// A kernel over float buffers (writes[i]: the kernel stores into buffer i), with these ids and Variables.
UOpProgram kernel(const std::string& name, const std::vector<bool>& writes, const LaunchDims& dims, bool local_ids,
                  const std::vector<std::string>& vars = {}) {
  UOpProgram p;
  p.name = name;
  p.dims = dims;
  p.vars = vars;
  for (size_t i = 0; i < writes.size(); i++) {
    p.globals.push_back(DType::Float32);
    p.uops.push_back({.kind = UOpKind::DefineGlobal, .dtype = DType::Float32, .ptr = true, .buffer = static_cast<int>(i),
                      .writes = writes[i]});
  }
  for (const std::string& v : vars) p.uops.push_back({.kind = UOpKind::DefineVar, .size = 1000, .name = v});
  p.uops.push_back({.kind = UOpKind::Special, .size = dims.global[0], .launch = LaunchKind::Global, .axis = 0});
  if (local_ids) p.uops.push_back({.kind = UOpKind::Special, .size = dims.local[0], .launch = LaunchKind::Local, .axis = 0});
  return p;
}

template <typename T>
std::vector<T> read(Device& d, const Buffer& b) {
  std::vector<T> out(static_cast<size_t>(b.size));
  d.copyout(out.data(), b);
  return out;
}

template <typename T>
BufferRef filled(Device& d, DType t, const std::vector<T>& values) {
  BufferRef b = d.alloc(t, static_cast<int64_t>(values.size()));
  d.copyin(*b, values.data());
  return b;
}

double run(Program& p, const std::vector<BufferRef>& bufs, const LaunchDims& dims, const std::vector<int32_t>& vars = {}) {
  return p.run(pointers(bufs), dims, vars);
}

// What kernel `name` of src, without local ids, writes into its one buffer of n floats over dims.
std::vector<float> written_by(Device& d, const std::string& name, const std::string& src, const LaunchDims& dims, int64_t n) {
  bool cached = false;
  const auto program = d.compile(kernel(name, {true}, dims, false), src, cached);
  const std::vector<BufferRef> bufs{d.alloc(DType::Float32, n)};
  run(*program, bufs, dims);
  return read<float>(d, *bufs[0]);
}

TEST_F(WebGpu, IsAGpuThatRunsWgsl) {
  EXPECT_EQ(dev().backend(), "wgsl");
  const Target t = dev().target();
  EXPECT_TRUE(t.gpu);
  EXPECT_GT(t.local_memory, 0);
  EXPECT_GE(t.max_local, 64);
  EXPECT_LE(t.max_local, 256);
  EXPECT_EQ(t.vector_width, 4);
  EXPECT_FALSE(t.mulacc);
  const std::string hw = dev().hardware();
  EXPECT_EQ(hw.rfind("WEBGPU (wgsl)\n", 0), 0u) << hw;
  EXPECT_NE(hw.find(" via "), std::string::npos) << hw;  // the adapter's name, kind and backend
}

TEST_F(WebGpu, CopiesEverySizeBackUnchanged) {
  const std::vector<uint8_t> bytes{1, 250, 7};
  const std::vector<uint8_t> bools{1, 0, 1};
  const std::vector<float> floats{1.5f, -2, 3, 4e10f, -0.0f};
  const std::vector<uint16_t> halves{0x3c00, 0xbc00, 0x7bff};  // 6 bytes
  const std::vector<int8_t> odd{-1, 2, -3, 4, -5, 6, -7};
  EXPECT_EQ(read<uint8_t>(dev(), *filled(dev(), DType::UInt8, bytes)), bytes);
  EXPECT_EQ(read<uint8_t>(dev(), *filled(dev(), DType::Bool, bools)), bools);
  EXPECT_EQ(read<uint16_t>(dev(), *filled(dev(), DType::Float16, halves)), halves);
  EXPECT_EQ(read<int8_t>(dev(), *filled(dev(), DType::Int8, odd)), odd);
  const std::vector<float> back = read<float>(dev(), *filled(dev(), DType::Float32, floats));
  EXPECT_EQ(std::memcmp(back.data(), floats.data(), sizeof(float) * floats.size()), 0);
  // one byte, written twice: the padded word of the second copy does not bring back the first
  const BufferRef one = filled(dev(), DType::UInt8, std::vector<uint8_t>{9});
  dev().copyin(*one, std::vector<uint8_t>{42}.data());
  EXPECT_EQ(read<uint8_t>(dev(), *one), std::vector<uint8_t>{42});
  // empty: nothing moves, and a null host pointer is never read
  const BufferRef empty = dev().alloc(DType::Float32, 0);
  dev().copyin(*empty, nullptr);
  dev().copyout(nullptr, *empty);
  EXPECT_EQ(empty->nbytes(), 0);
}

TEST_F(WebGpu, RunsAKernelWithLocalIds) {
  const std::string src = R"(
@group(0) @binding(0) var<storage, read_write> data0: array<f32>;
@group(0) @binding(1) var<storage, read> data1: array<f32>;
@compute @workgroup_size(64)
fn twice(@builtin(workgroup_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let i = gid.x * 64u + lid.x;
  data0[i] = data1[i] * 2.0;
}
)";
  const LaunchDims dims{.global = {4, 1, 1}, .local = {64, 1, 1}};
  const UOpProgram p = kernel("twice", {true, false}, dims, true);
  bool cached = true;
  const auto program = dev().compile(p, src, cached);
  EXPECT_FALSE(cached);  // WebGPU has no binaries to keep
  std::vector<float> in(256);
  for (size_t i = 0; i < in.size(); i++) in[i] = static_cast<float>(i);
  const std::vector<BufferRef> bufs{dev().alloc(DType::Float32, 256), filled(dev(), DType::Float32, in)};
  const double seconds = run(*program, bufs, dims);
  EXPECT_GE(seconds, 0.0);
  EXPECT_LT(seconds, 10.0);
  const std::vector<float> out = read<float>(dev(), *bufs[0]);
  for (size_t i = 0; i < out.size(); i++) ASSERT_EQ(out[i], 2.0f * static_cast<float>(i)) << i;
}

// Without local ids each workgroup is one thread, and the grid is dims.global.
TEST_F(WebGpu, RunsAKernelWithoutLocalIdsOverAGridOfOneThreadWorkgroups) {
  const std::string src = R"(
@group(0) @binding(0) var<storage, read_write> data0: array<f32>;
@compute @workgroup_size(1)
fn grid(@builtin(workgroup_id) gid: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
  data0[gid.y * n.x + gid.x] = f32(gid.x + 10u * gid.y);
}
)";
  EXPECT_EQ(written_by(dev(), "grid", src, {.global = {5, 3, 1}}, 15),
            (std::vector<float>{0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 20, 21, 22, 23, 24}));
}

// The Variables' values come in one more read-only binding after the buffers; a symbolic axis takes its
// size from them at each launch.
TEST_F(WebGpu, RunsAKernelWithAVariable) {
  const std::string src = R"(
@group(0) @binding(0) var<storage, read_write> data0: array<f32>;
@group(0) @binding(1) var<storage, read> data1: array<f32>;
@group(0) @binding(2) var<storage, read> vars: array<i32>;
@compute @workgroup_size(1)
fn shifted(@builtin(workgroup_id) gid: vec3<u32>) {
  data0[gid.x] = data1[gid.x] + f32(vars[0] * 100);
}
)";
  const LaunchDims dims{.global = {1, 1, 1}, .global_var = {0, -1, -1}};
  bool cached = false;
  const auto program = dev().compile(kernel("shifted", {true, false}, dims, false, {"n"}), src, cached);
  const std::vector<BufferRef> bufs{filled(dev(), DType::Float32, std::vector<float>(6, -1)),
                                    filled(dev(), DType::Float32, std::vector<float>{1, 2, 3, 4, 5, 6})};
  run(*program, bufs, dims, {4});
  EXPECT_EQ(read<float>(dev(), *bufs[0]), (std::vector<float>{401, 402, 403, 404, -1, -1}));
  run(*program, bufs, dims, {2});
  EXPECT_EQ(read<float>(dev(), *bufs[0]), (std::vector<float>{201, 202, 403, 404, -1, -1}));
}

// WebGPU's default is 8 storage buffers a kernel; the device asks for the adapter's own limit.
TEST_F(WebGpu, BindsMoreStorageBuffersThanWebGpusDefault) {
  std::string src = "@group(0) @binding(0) var<storage, read_write> data0: array<f32>;\n";
  std::string sum = "0.0";
  for (int i = 1; i <= 9; i++) {
    src += fmt::format("@group(0) @binding({0}) var<storage, read> data{0}: array<f32>;\n", i);
    sum += fmt::format(" + data{}[gid.x]", i);
  }
  src += fmt::format("@compute @workgroup_size(1)\nfn sum9(@builtin(workgroup_id) gid: vec3<u32>) {{ data0[gid.x] = {}; }}\n", sum);
  const LaunchDims dims{.global = {2, 1, 1}};
  bool cached = false;
  const auto program = dev().compile(kernel("sum9", std::vector<bool>{true, false, false, false, false, false, false, false, false, false},
                                            dims, false),
                                     src, cached);
  std::vector<BufferRef> bufs{dev().alloc(DType::Float32, 2)};
  for (int i = 1; i <= 9; i++) bufs.push_back(filled(dev(), DType::Float32, std::vector<float>{static_cast<float>(i), 1}));
  run(*program, bufs, dims);
  EXPECT_EQ(read<float>(dev(), *bufs[0]), (std::vector<float>{45, 9}));
}

TEST_F(WebGpu, HalfArithmeticWhereTheAdapterHasShaderF16) {
  if (!dev().target().half_arithmetic) GTEST_SKIP() << "the adapter has no shader-f16";
  const std::string src = R"(
enable f16;
@group(0) @binding(0) var<storage, read_write> data0: array<f32>;
@compute @workgroup_size(1)
fn half(@builtin(workgroup_id) gid: vec3<u32>) {
  let h = f16(1.5) * f16(gid.x);
  data0[gid.x] = f32(h);
}
)";
  EXPECT_EQ(written_by(dev(), "half", src, {.global = {3, 1, 1}}, 3), (std::vector<float>{0, 1.5f, 3}));
}

TEST_F(WebGpu, AWgslErrorIsACompileErrorWithTheMessageAndTheSource) {
  const std::string bad = R"(
@group(0) @binding(0) var<storage, read_write> data0: array<f32>;
@compute @workgroup_size(1)
fn broken(@builtin(workgroup_id) gid: vec3<u32>) { data0[gid.x] = undefined_name; }
)";
  const UOpProgram p = kernel("broken", {true}, {}, false);
  bool cached = false;
  EXPECT_TRUE(testing::throws([&] { dev().compile(p, bad, cached); }, "compile", "undefined_name"));
  EXPECT_TRUE(testing::throws([&] { dev().compile(p, bad, cached); }, "compile", "source:\n" + bad));
  // an entry point the source does not have fails the pipeline, not the process
  const std::string other = R"(
@group(0) @binding(0) var<storage, read_write> data0: array<f32>;
@compute @workgroup_size(1)
fn other(@builtin(workgroup_id) gid: vec3<u32>) { data0[gid.x] = 1.0; }
)";
  EXPECT_TRUE(testing::throws([&] { dev().compile(p, other, cached); }, "compile", "source:\n" + other));
  // the device still works
  const BufferRef b = filled(dev(), DType::Float32, std::vector<float>{1, 2});
  EXPECT_EQ(read<float>(dev(), *b), (std::vector<float>{1, 2}));
}

// The engine compiles a schedule's kernels on several threads at once; each error stays with its kernel.
TEST_F(WebGpu, CompilesOnSeveralThreadsAtOnce) {
  std::vector<std::thread> threads;
  std::vector<std::string> outcome(8);
  for (size_t t = 0; t < outcome.size(); t++)
    threads.emplace_back([&, t] {
      const std::string name = fmt::format("k{}", t);
      const std::string value = t % 2 == 0 ? fmt::format("{}.0", t) : fmt::format("missing{}", t);
      const std::string src = fmt::format(
          "@group(0) @binding(0) var<storage, read_write> data0: array<f32>;\n"
          "@compute @workgroup_size(1) fn {}(@builtin(workgroup_id) gid: vec3<u32>) {{ data0[gid.x] = {}; }}\n",
          name, value);
      try {
        bool cached = false;
        const auto program = dev().compile(kernel(name, {true}, {}, false), src, cached);
        outcome[t] = "ok";
      } catch (const Error& e) {
        outcome[t] = e.kind() + ": " + e.what();
      }
    });
  for (std::thread& t : threads) t.join();
  for (size_t t = 0; t < outcome.size(); t++) {
    if (t % 2 == 0) {
      EXPECT_EQ(outcome[t], "ok") << t;
    } else {
      EXPECT_EQ(outcome[t].rfind("compile: ", 0), 0u) << outcome[t];
      EXPECT_NE(outcome[t].find(fmt::format("missing{}", t)), std::string::npos) << outcome[t];
      for (size_t other = 1; other < outcome.size(); other += 2) {
        if (other == t) continue;
        EXPECT_EQ(outcome[t].find(fmt::format("missing{}", other)), std::string::npos) << outcome[t];
      }
    }
  }
}

TEST_F(WebGpu, ALaunchOverTheWorkgroupLimitIsADeviceError) {
  const std::string src = R"(
@group(0) @binding(0) var<storage, read_write> data0: array<f32>;
@compute @workgroup_size(1)
fn wide(@builtin(workgroup_id) gid: vec3<u32>) { data0[gid.x] = f32(gid.x); }
)";
  bool cached = false;
  const auto program = dev().compile(kernel("wide", {true}, {}, false), src, cached);
  const std::vector<BufferRef> bufs{dev().alloc(DType::Float32, 3)};
  const int64_t huge = int64_t{1} << 33;  // past any limit a 32-bit count can state, folded into z or not
  EXPECT_TRUE(testing::throws([&] { run(*program, bufs, {.global = {huge, 1, 1}}); }, "device",
                              "workgroups on axis z, the kernel needs 262144"));
  EXPECT_TRUE(testing::throws([&] { run(*program, bufs, {.global = {1, huge, 1}}); }, "device", "WebGPU allows"));
  EXPECT_TRUE(testing::throws([&] { run(*program, bufs, {.global = {1, huge, 1}}); }, "device", "on axis y"));
  run(*program, bufs, {.global = {3, 1, 1}});
  EXPECT_EQ(read<float>(dev(), *bufs[0]), (std::vector<float>{0, 1, 2}));  // nothing was left half-done
}

// WebGPU binds a buffer a dispatch writes only once: an assign in place (the output buffer also read as
// an input) reads a copy made before the pass, so every element reads its value from before the kernel.
TEST_F(WebGpu, AKernelReadsABufferItWritesInPlace) {
  const std::string src = R"(
@group(0) @binding(0) var<storage, read_write> data0: array<f32>;
@group(0) @binding(1) var<storage, read> data1: array<f32>;
@compute @workgroup_size(1)
fn shift(@builtin(workgroup_id) gid: vec3<u32>) { data0[gid.x] = data1[(gid.x + 1u) % 4u] * 10.0; }
)";
  bool cached = false;
  const auto program = dev().compile(kernel("shift", {true, false}, {}, false), src, cached);
  const BufferRef b = filled<float>(dev(), DType::Float32, {1, 2, 3, 4});
  run(*program, {b, b}, {.global = {4, 1, 1}});
  EXPECT_EQ(read<float>(dev(), *b), (std::vector<float>{20, 30, 40, 10}));
}

// More x workgroups than WebGPU's 65535 per axis fold into z, as the WGSL renderer spells the x id.
TEST_F(WebGpu, XWorkgroupsPastTheLimitFoldIntoZ) {
  const std::string src = R"(
@group(0) @binding(0) var<storage, read_write> data0: array<f32>;
@compute @workgroup_size(1)
fn fold(@builtin(workgroup_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.z * nwg.x;
  data0[i] = f32(i);
}
)";
  const int64_t n = int64_t{1} << 17;
  const std::vector<float> got = written_by(dev(), "fold", src, {.global = {n, 1, 1}}, n);
  ASSERT_EQ(static_cast<int64_t>(got.size()), n);
  for (int64_t i = 0; i < n; i++)
    if (got[static_cast<size_t>(i)] != static_cast<float>(i)) FAIL() << "element " << i << " is " << got[static_cast<size_t>(i)];
}

// A launch WebGPU's validation rejects (a buffer smaller than the WGSL's smallest binding) is an error of
// the launch, not wgpu-native's abort.
TEST_F(WebGpu, ALaunchWebGpuRejectsIsADeviceError) {
  const std::string src = R"(
@group(0) @binding(0) var<storage, read_write> data0: array<vec4<f32>>;
@compute @workgroup_size(1)
fn wide4(@builtin(workgroup_id) gid: vec3<u32>) { data0[gid.x] = vec4<f32>(1.0); }
)";
  bool cached = false;
  const auto program = dev().compile(kernel("wide4", {true}, {}, false), src, cached);
  const std::vector<BufferRef> small{dev().alloc(DType::Float32, 1)};  // 4 bytes, and a vec4 is 16
  EXPECT_TRUE(testing::throws([&] { run(*program, small, {}); }, "device", "WebGPU rejected the launch of wide4"));
  EXPECT_TRUE(testing::throws([&] { run(*program, {}, {}); }, "device", "wide4 binds 1 buffers, and the launch gives 0"));
  const std::vector<BufferRef> fits{dev().alloc(DType::Float32, 4)};
  run(*program, fits, {});
  EXPECT_EQ(read<float>(dev(), *fits[0]), (std::vector<float>{1, 1, 1, 1}));
}

// 4 GiB: more than a Vulkan binding can be (a 32-bit byte count; lavapipe allows 128 MiB), or on a machine
// with less memory more than check_alloc lets through
TEST_F(WebGpu, AnAllocationOverTheLimitsIsAMemoryError) {
  EXPECT_TRUE(testing::throws([&] { dev().alloc(DType::Float32, int64_t{1} << 30); }, "memory", ""));
}

TEST_F(WebGpu, AMissingAdapterSaysHowManyThereAre) {
  const std::string why = device_status("WEBGPU:99");
  EXPECT_NE(why.find("there is no WEBGPU:99: wgpu-native finds "), std::string::npos) << why;
  EXPECT_NE(why.find("adapter(s)"), std::string::npos) << why;
}

}  // namespace
}  // namespace tr
