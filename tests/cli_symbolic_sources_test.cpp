// The sources of a kernel over a symbolic size in every tab: a GPU language lowers it with no opts
// (its sizes are known at launch, as it runs), and each takes the Variable as an argument, PTX too.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli_testing.h"

namespace tr::repl {
namespace {

using testing::json_lines;
using testing::Result;
using testing::run_here;

constexpr const char* kSymbolic =
    "n = Variable('n', 1, 8)\nx = arange(8).float().realize()\ny = (x[:n.bind(3)] * 2).realize()\n";

TEST(CliSymbolicSources, GpuTabsLowerItWithNoOpts) {
  const Result r = run_here({"-e", std::string(kSymbolic) + ":src 0 ptx\n:src 0 opencl\n"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "// lowered for OPENCL with no opts (a symbolic size): none (this kernel ran on CPU)\n");
  EXPECT_CONTAINS(r.out, "const int n)");
  EXPECT_CONTAINS(r.out, "with no opts (a symbolic size): none (this kernel ran on CPU)\n");
  EXPECT_CONTAINS(r.out, "\t.param .u32 n\n");
}

TEST(CliSymbolicSources, DebugFourRendersItForEveryBackend) {
  const Result r = run_here({"--json", "--debug", "4", "--render", "c,ptx", "-e", kSymbolic});
  ASSERT_EQ(r.status, 0) << r.err;
  int sources = 0;
  for (const nlohmann::json& e : json_lines(r.out)) {
    // the kernel over the symbolic size (arange's kernel before it renders everywhere)
    if (e["event"] != "source" || e["kernel"] != "E_n") continue;
    sources++;
    const std::string text = e["text"].get<std::string>();
    EXPECT_NE(text.find(e["backend"] == "ptx" ? "ld.param.u32" : "const int n"), std::string::npos) << text;
  }
  EXPECT_EQ(sources, 2);
}

}  // namespace
}  // namespace tr::repl
