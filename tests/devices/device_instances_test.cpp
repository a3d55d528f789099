// NAME:N, a second (third, ...) instance of a device kind: its name, its own buffers, copies between
// two instances of one kind both ways, the error for operands on two instances, and what each kind
// says when instance N does not exist.
#include <gtest/gtest.h>

#include <string>

#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/lazy/lazy.h"
#include "core/schedule/schedule.h"
#include "tests/plugin_testing.h"
#include "tests/tensor_testing.h"

namespace tr {
namespace {

bool available(const std::string& dev) { return device_status(dev).empty(); }

const Buffer& buffer(const Tensor& t) { return *base_of(t.node())->buffer; }

TEST(DeviceNames, IndexAsTinygradSpellsIt) {
  EXPECT_EQ(canonical_device("cpu:1"), "CPU:1");
  EXPECT_EQ(canonical_device("CPU:0"), "CPU");
  EXPECT_EQ(canonical_device("gpu:2"), "OPENCL:2");
  EXPECT_EQ(canonical_device("clang:3"), "CPU:3");
  EXPECT_EQ(parse_device_name("cuda:1").kind, "CUDA");
  EXPECT_EQ(parse_device_name("cuda:1").index, 1);
  for (const char* bad : {"CPU:", "CPU:x", "CPU:-1", "CPU:1x", "CPU:99999999999"})
    EXPECT_TRUE(testing::throws([&] { canonical_device(bad); }, "device", "the index after ':' must be a whole number"))
        << bad;
}

TEST(DeviceInstances, CpuOneIsADeviceOfItsOwn) {
  Device& zero = device("CPU");
  Device& one = device("cpu:1");
  EXPECT_NE(&zero, &one);
  EXPECT_EQ(&zero, &device("CPU:0"));
  EXPECT_EQ(one.name(), "CPU:1");
  EXPECT_EQ(one.alloc(DType::Float32, 4)->device, "CPU:1");
}

// CPU -> CPU:1 -> CPU, a kernel on CPU:1 between: each step its own buffer on its own device, and the
// source keeps its values when the copy's are changed.
TEST(DeviceInstances, CopiesBothWaysHoldSeparateBuffers) {
  Tensor x = testing::tensor({1, 2, 3, 4});
  x.realize();
  Tensor y = x.to("CPU:1");
  EXPECT_EQ(y.device(), "CPU:1");
  y.realize();
  EXPECT_EQ(buffer(y).device, "CPU:1");
  EXPECT_NE(buffer(y).mem.get(), buffer(x).mem.get());
  const float changed[4] = {10, 20, 30, 40};
  device("CPU:1").copyin(buffer(y), changed);
  EXPECT_TRUE(testing::has_values(x, {1, 2, 3, 4}));
  EXPECT_TRUE(testing::has_values(y, {10, 20, 30, 40}));
  const Tensor back = y.mul(testing::tensor({2}).to("CPU:1")).to("CPU");
  EXPECT_EQ(back.device(), "CPU");
  EXPECT_TRUE(testing::has_values(back, {20, 40, 60, 80}));
  EXPECT_TRUE(testing::has_values(x.to("CPU:1").to("CPU:2").to("CPU"), {1, 2, 3, 4}));
}

TEST(DeviceInstances, TheScheduleShowsTheCopyWithItsReason) {
  const Tensor y = testing::tensor({1, 2}).add(testing::tensor({1})).to("CPU:1");
  const std::vector<ScheduleItem> items = create_schedule({y.node()});
  ASSERT_FALSE(items.empty());
  EXPECT_EQ(items.back().kind, ScheduleItem::Kind::Copy);
  EXPECT_EQ(items.back().reason, "a copy to CPU:1");
  EXPECT_EQ(items[items.size() - 2].reason, "the source of a copy between devices");
}

TEST(DeviceInstances, OperandsOnTwoInstancesAreAnError) {
  const Tensor here = testing::tensor({1, 0, 2}), there = testing::tensor({4, 5, 6}).to("CPU:1");
  EXPECT_TRUE(testing::throws([&] { here.add(there); }, "device", "operands are on CPU and CPU:1"));
  EXPECT_TRUE(testing::throws([&] { there.where(here, there); }, "device", "operands are on CPU:1 and CPU"));
}

TEST(DeviceInstances, LlvmOneRunsApart) {
  if (!available("LLVM")) GTEST_SKIP() << "LLVM cannot open: " << device_status("LLVM");
  const Tensor x = testing::tensor({1, 2, 3}).to("LLVM:1");
  EXPECT_EQ(x.device(), "LLVM:1");
  EXPECT_NE(&device("LLVM"), &device("LLVM:1"));
  EXPECT_TRUE(testing::has_values(x.neg().to("LLVM").add(testing::tensor({1}).to("LLVM")).to("CPU"), {0, -1, -2}));
}

// OPENCL:N and CUDA:N are the N-th device the driver shows; past the last, the error says how many.
TEST(DeviceInstances, GpuIndexPastTheLastSaysHowMany) {
  if (available("OPENCL")) {
    EXPECT_NE(device_status("OPENCL:64").find("there is no OPENCL:64: the OpenCL drivers show "), std::string::npos)
        << device_status("OPENCL:64");
  }
  for (const char* kind : {"CUDA", "NV"}) {
    if (!available(kind)) continue;
    const std::string name = std::string(kind) + ":64";
    EXPECT_NE(device_status(name).find("there is no " + name + ": the NVIDIA driver sees "), std::string::npos)
        << device_status(name);
  }
  if (!available("OPENCL") && !available("CUDA") && !available("NV")) GTEST_SKIP() << "no GPU device opens here";
}

TEST(DeviceInstances, APlugInHasOne) {
  testing::load_example_plugin();
  const std::string name = std::string(testing::kPluginDevice) + ":1";
  EXPECT_EQ(device_status(name), "there is no " + name + ": a plug-in device has one instance");
}

}  // namespace
}  // namespace tr
