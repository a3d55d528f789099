// :asm K [BACKEND]: the kernel's machine code as its device compiled it, each run of instructions
// under the source line that made it; the backends with no code to read back say why.
#include <gtest/gtest.h>

#include <regex>

#include "devices/disassembly.h"
#include "tests/cli_testing.h"

namespace tr::repl {
namespace {

using testing::json_lines;
using testing::Result;
using testing::run_here;

Result session(const std::string& input, int errors = 0) {
  Result r = run_here({}, input);
  EXPECT_EQ(r.status, errors ? 2 : 0) << r.err;
  return r;
}

// The kernel's name as `kernel K NAME on DEVICE` heads the listing.
std::string kernel_name(const std::string& out) {
  std::smatch m;
  EXPECT_TRUE(std::regex_search(out, m, std::regex(R"(kernel \d+ (\S+) on )"))) << out;
  return m[1];
}

// The instructions listed under the source lines that match `code` (each up to the next source line).
std::vector<std::string> under_line(const std::string& out, const std::string& code) {
  const std::regex wanted(code);
  std::vector<std::string> instructions;
  bool inside = false;
  std::istringstream in(out);
  static const std::regex source_line(R"(^\s*\d+ │ .*)"), instruction(R"(^\s+[0-9a-f]+  (.*)$)");
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, source_line)) {
      inside = std::regex_search(line, wanted);
    } else if (inside && std::regex_match(line, m, instruction)) {
      instructions.push_back(m[1]);
    }
  }
  return instructions;
}

// the line that stores the result: `data0[i] = ...` or `*((float4*)(data0+alu0)) = ...`
constexpr const char* kStore = R"(data0(\[|\+).*=)";
constexpr const char* kDouble = "a = arange(64).float().realize()\nb = (a * 3).realize()\n";

TEST(CliAsm, CpuKernelIsTheCachedObjectWithItsInstructionsUnderTheirLines) {
  const Result r = session(std::string(kDouble) + ":asm\n");
  const std::string name = kernel_name(r.out);
  EXPECT_CONTAINS(r.out, "\n// c: GNU objdump");
  // the object the CPU device ran: its disk cache entry, under the key the device compiled it with
  EXPECT_CONTAINS(r.out, "as the CPU device compiles this source (the copy in its disk cache)\n");
  EXPECT_CONTAINS(r.out, "// source lines from the same compile with -g added, which made the same instructions at the same addresses\n");
  EXPECT_CONTAINS(r.out, "\n" + name + ":\n");
  EXPECT_EQ(r.out.find("\ntinyrepl_entry:"), std::string::npos) << "the entry is not the kernel's code";
  // the store of the result is made by the line that writes data0: an instruction there writes memory
  const std::vector<std::string> store = under_line(r.out, kStore);
  ASSERT_FALSE(store.empty()) << r.out;
  EXPECT_TRUE(std::any_of(store.begin(), store.end(), [](const std::string& i) { return std::regex_search(i, std::regex(R"(,\s*-?(0x[0-9a-f]+)?\(%r)")); }))
      << r.out;
}

TEST(CliAsm, LlvmDeviceShowsItsCodeUnderTheIrLines) {
  const Result r = session(std::string(":device LLVM\n") + kDouble + ":asm\n");
  const std::string name = kernel_name(r.out);
  EXPECT_CONTAINS(r.out, "; llvm: GNU objdump");
  EXPECT_CONTAINS(r.out, "as the LLVM device compiles this source (the copy in its disk cache)\n");
  EXPECT_CONTAINS(r.out, "with a debug location on each instruction naming its line, compiled with -g added, which made the "
                         "same instructions at the same addresses\n");
  EXPECT_CONTAINS(r.out, "\n" + name + ":\n");
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n\s+[0-9a-f]+  ret)"))) << r.out;
  // the IR's store of the result (the kernel's only store) makes an instruction that writes memory
  const std::vector<std::string> store = under_line(r.out, R"(│\s+store )");
  ASSERT_FALSE(store.empty()) << r.out;
  EXPECT_TRUE(std::any_of(store.begin(), store.end(), [](const std::string& i) { return std::regex_search(i, std::regex(R"(,\s*-?(0x[0-9a-f]+)?\(%r)")); }))
      << r.out;
}

TEST(CliAsm, AnotherBackendSaysItIsNotTheCodeThatRan) {
  const Result r = session(std::string(kDouble) + ":asm llvm\n:asm opencl\n:asm wgsl\n:asm metal\n");
  EXPECT_CONTAINS(r.out, "; llvm: not the code that ran (kernel ");
  EXPECT_CONTAINS(r.out, "ran on CPU): the same UOps rendered for this backend\n; GNU objdump");
  EXPECT_CONTAINS(r.out, "// opencl: not the code that ran");
  EXPECT_CONTAINS(r.out, "no machine code: the OpenCL driver compiles the source as the program is built");
  EXPECT_CONTAINS(r.out, "no machine code: wgpu-native compiles WGSL");
  EXPECT_CONTAINS(r.out, "no machine code: Metal compiles inside Apple's framework");
}

TEST(CliAsm, CudaSassThroughTheToolkitOrWhyNot) {
  const Result r = session(std::string(kDouble) + ":asm cuda\n");
  const bool nvdisasm = on_path("nvdisasm") || cuda_tool("nvdisasm"), cuobjdump = cuda_tool("cuobjdump").has_value();
  if (!nvdisasm && !cuobjdump) {
    EXPECT_CONTAINS(r.out, "no SASS: neither nvdisasm nor cuobjdump (the CUDA toolkit's disassemblers) is in PATH, ");
    GTEST_SKIP() << "no nvdisasm or cuobjdump here (" << cuda_tool_places() << "): only the reason was checked";
  }
  EXPECT_CONTAINS(r.out, "of the cubin that NVRTC ");
  EXPECT_CONTAINS(r.out, "compiled again here with the options the CUDA device compiles with (not read from its cache)");
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n\s+[0-9a-f]+  EXIT)"))) << r.out;
  if (nvdisasm) {
    // the global store is made by the line that writes data0
    const std::vector<std::string> store = under_line(r.out, kStore);
    EXPECT_TRUE(std::any_of(store.begin(), store.end(), [](const std::string& i) { return i.starts_with("STG"); })) << r.out;
  }
}

TEST(CliAsm, BadKernelOrBackendPointsAtIt) {
  const Result r = session(std::string(kDouble) + ":asm 0 fortran\n:asm 9\n", 2);
  EXPECT_CONTAINS(r.err, "unknown backend 'fortran'");
  EXPECT_CONTAINS(r.err, ":asm 0 fortran\n       ^~~~~~~\n");
}

TEST(CliAsm, JsonCarriesTheListingAsTheCommandsOutput) {
  const Result r = run_here({"--json", "-e", std::string(kDouble) + ":asm"});
  ASSERT_EQ(r.status, 0) << r.err;
  bool found = false;
  for (const nlohmann::json& e : json_lines(r.out))
    if (e.value("command", "") == "asm") found = e.value("text", "").find("// c: GNU objdump") != std::string::npos;
  EXPECT_TRUE(found) << r.out;
}

}  // namespace
}  // namespace tr::repl
