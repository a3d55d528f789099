// The sources of a kernel over a symbolic size in every tab: a GPU language lowers it with its default
// opts, which split only the dims of a known size, and each takes the Variable as an argument, PTX too.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli_testing.h"

namespace tr::repl {
namespace {

using testing::json_lines;
using testing::Result;
using testing::run_here;

constexpr const char* kSymbolic =
    "n = Variable('n', 1, 8)\nx = ones(8, 64).contiguous().realize()\ny = (x[:n.bind(3)] * 2).realize()\n";

TEST(CliSymbolicSources, GpuTabsLowerItWithTheirDefaultOpts) {
  const Result r = run_here({"-e", std::string(kSymbolic) + ":src 0 ptx\n:src 0 opencl\n:opts\n"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "// lowered for OPENCL with its default opts: UPCAST(1, 4), LOCAL(1, 16) (this kernel ran on CPU)\n");
  EXPECT_CONTAINS(r.out, "const int n)");
  EXPECT_CONTAINS(r.out, "with its default opts: UPCAST(1, 4), LOCAL(1, 16) (this kernel ran on CPU)\n");
  EXPECT_CONTAINS(r.out, "\t.param .u32 n\n");
  // :opts shows the symbolic dim by its Variable, with the largest value the kernel serves
  EXPECT_CONTAINS(r.out, "full shape (n, 64), no reduce axes\n");
  EXPECT_CONTAINS(r.out, "   0  global  size n<=8   axis 0 of the full shape\n");
}

// :opt splits a dim of a known size of a symbolic kernel and times it with the statement's value of n;
// the symbolic dim itself is refused.
TEST(CliSymbolicSources, OptByHandSplitsOnlyTheFixedDims) {
  const Result r = run_here({"-e", std::string(kSymbolic) + ":opt 0 none\n:opt 0 UPCAST 1 8\n:opt 0 UPCAST 0 2\n"});
  EXPECT_CONTAINS(r.out, "kernel 0 E_n_8_8 on CPU (opts: UPCAST(1, 8))\n");
  EXPECT_CONTAINS(r.out, "void E_n_8_8(float* restrict data0, const float* restrict data1, const int n, int core_id)");
  EXPECT_CONTAINS(r.err, "UPCAST(0, 2): dim 0 is the symbolic size n; opts split only dims of a known size");
}

TEST(CliSymbolicSources, DebugFourRendersItForEveryBackend) {
  const Result r = run_here({"--json", "--debug", "4", "--render", "c,ptx", "-e", kSymbolic});
  ASSERT_EQ(r.status, 0) << r.err;
  int sources = 0;
  for (const nlohmann::json& e : json_lines(r.out)) {
    // the kernel over the symbolic size (the kernel that makes x is rendered everywhere too)
    if (e["event"] != "source" || e["kernel"] != "E_n_4_16") continue;
    sources++;
    const std::string text = e["text"].get<std::string>();
    EXPECT_NE(text.find(e["backend"] == "ptx" ? "ld.param.u32" : "const int n"), std::string::npos) << text;
  }
  EXPECT_EQ(sources, 2);
}

}  // namespace
}  // namespace tr::repl
