// NAME:N from the user's side: --device, DEV and :device take CPU:1; the tensor's repr, .device, the
// DEBUG=2 lines and the trace name the instance; mixing two instances is an error with a caret.
#include <gtest/gtest.h>

#include "tests/cli_testing.h"

namespace tr::repl {
namespace {

using testing::contains;

TEST(CliDeviceIndex, EveryWayOfNamingTheDefault) {
  const std::string show = "x = tensor([1,2,3])\nprint(x.device)\nx\n";
  const testing::Result flag = testing::run_binary({"--plain", "--device", "cpu:1"}, show);
  EXPECT_EQ(flag.status, 0) << flag.err;
  EXPECT_TRUE(contains(flag.out, "CPU:1\n<Tensor (3,) dtypes.int on CPU:1, lazy>")) << flag.out;
  const testing::Result env = testing::run_binary({"--plain"}, show, {"DEV=CPU:1"});
  EXPECT_TRUE(contains(env.out, "CPU:1\n<Tensor (3,) dtypes.int on CPU:1, lazy>")) << env.out << env.err;
  const testing::Result meta = testing::run_here({"--plain"}, ":device CPU:1\n" + show + ":device CPU:0\nprint(tensor([1]).device)\n");
  EXPECT_TRUE(contains(meta.out, "new tensors go to CPU:1\nCPU:1\n<Tensor (3,) dtypes.int on CPU:1, lazy>")) << meta.out;
  EXPECT_TRUE(contains(meta.out, "new tensors go to CPU\nCPU\n")) << meta.out;
}

TEST(CliDeviceIndex, DebugLinesAndTraceNameTheInstance) {
  const testing::TempDir dir;
  const std::string trace = dir.file("t.json");
  const testing::Result r = testing::run_binary(
      {"--plain"}, "x = tensor([1,2,3])\ny = (x.to('CPU:1') * 2).to('CPU')\nprint(y)\n:trace " + trace + "\n", {"DEBUG=2"});
  EXPECT_EQ(r.status, 0) << r.err;
  const std::string all = r.out + r.err;
  EXPECT_TRUE(contains(all, "CPU:1 <- CPU")) << all;
  EXPECT_TRUE(contains(all, "CPU <- CPU:1")) << all;
  EXPECT_TRUE(contains(all, "*** CPU:1 ")) << all;
  EXPECT_TRUE(contains(all, "[2 4 6]")) << all;
  const std::string events = testing::read_file(trace);
  EXPECT_TRUE(contains(events, "\"tid\": \"CPU:1\"")) << events;
  EXPECT_TRUE(contains(events, "copy CPU -> CPU:1")) << events;
}

TEST(CliDeviceIndex, MixingInstancesOrABadIndexIsAnError) {
  const testing::Result mixed = testing::run_here({"-e", "x = tensor([1,2])\ny = x + x.to('CPU:1')"});
  EXPECT_EQ(mixed.status, 2);
  EXPECT_TRUE(contains(mixed.err, "operands are on CPU and CPU:1; move one with .to()")) << mixed.err;
  EXPECT_TRUE(contains(mixed.err, "^")) << mixed.err;
  const testing::Result bad = testing::run_here({"--device", "CPU:x", "-e", "1"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(contains(bad.err, "'CPU:x': the index after ':' must be a whole number")) << bad.err;
}

}  // namespace
}  // namespace tr::repl
