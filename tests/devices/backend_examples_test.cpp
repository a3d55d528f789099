// Every example script (scripts/examples/*.tg, whose asserts check values and kernel counts) run by
// the tinyrepl program under the devices beyond CPU: LLVM, OPENCL, the Metal and HIP shims, CUDA, NV
// and WEBGPU. CTest replays them on the CPU (tests/cli.cmake).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "core/runtime/device.h"
#include "devices/disk_cache.h"
#include "devices/shims/gpu_shim.h"

namespace tr {
namespace {

namespace fs = std::filesystem;

// The program sits beside the tests in the build tree: <build>/tests/this, <build>/repl/tinyrepl.
fs::path tinyrepl() { return fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "repl" / "tinyrepl"; }

std::vector<std::string> examples() {
  std::vector<std::string> out;
  const fs::path dir = fs::path(__FILE__).parent_path().parent_path().parent_path() / "scripts" / "examples";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".tg") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

using Param = std::tuple<std::string, std::string>;

class Example : public ::testing::TestWithParam<Param> {
 protected:
  static void SetUpTestSuite() {
    register_device({kMetalShim, open_metal_shim});
    register_device({kHipShim, open_hip_shim});
  }
};

TEST_P(Example, PassesItsAsserts) {
  const auto& [dev, script] = GetParam();
  if (!fs::exists(tinyrepl())) GTEST_SKIP() << "the tinyrepl program is not built at " << tinyrepl();
  if (const std::string why = device_status(dev); !why.empty()) GTEST_SKIP() << dev << " cannot open: " << why;
  std::string out;
  const int status = run_command(fmt::format("TINYREPL_SHIMS=1 '{}' --device {} run '{}'", tinyrepl().string(), dev, script), out);
  // what a device's language lacks (Metal float64, WGSL every 64-bit type) is its own error, named in
  // the script's output
  for (const char* lacks : {"error: Metal has no float64", "error: WGSL has no "})
    if (const size_t at = out.find(lacks); status != 0 && at != std::string::npos)
      GTEST_SKIP() << dev << ": " << out.substr(out.rfind('\n', at) + 1, out.find('\n', at) - out.rfind('\n', at) - 1);
  EXPECT_EQ(status, 0) << out;
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  std::string name = std::get<0>(info.param) + "_" + fs::path(std::get<1>(info.param)).stem().string();
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Example);
INSTANTIATE_TEST_SUITE_P(Scripts, Example,
                         ::testing::Combine(::testing::Values("LLVM", "OPENCL", "QCOM", "METALSHIM", "HIPSHIM", "CUDA", "NV", "WEBGPU"),
                                            ::testing::ValuesIn(examples())),
                         param_name);

}  // namespace
}  // namespace tr
