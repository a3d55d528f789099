// What a @jit replay looks like from outside: DEBUG 2's (jit) lines, --json's "jit" field, :jit's
// listing and the Timings table.
#include <gtest/gtest.h>

#include <string>

#include "tests/cli_testing.h"

namespace tr::repl {
namespace {

using testing::json_lines;
using testing::Result;
using testing::run_here;

constexpr const char* kThreeCalls =
    "@jit\ndef dot(x, y):\n  return (x * y).sum()\n\n"
    "a = dot(tensor([1., 2., 3.]), tensor([4., 5., 6.]))\n"
    "b = dot(tensor([1., 1., 1.]), tensor([2., 2., 2.]))\n"
    "x = tensor([1., 0., 2.]).realize(); y = tensor([3., 3., 3.]).realize()\n"
    "c = dot(x, y)\nprint(c)\n";

TEST(CliJit, DebugTwoMarksTheReplayedKernelOnly) {
  const Result r = run_here({"--debug", "2", "-e", kThreeCalls});
  ASSERT_EQ(r.status, 0) << r.err;
  // the third call's kernel is the one line with (jit), after the realize of x and y and before 9.0
  const size_t jit = r.out.find(" (jit)\n");
  ASSERT_NE(jit, std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" (jit)", jit + 1), std::string::npos) << r.out;
  const size_t line = r.out.rfind("*** CPU", jit);
  EXPECT_NE(r.out.substr(line, jit - line).find(" r_3"), std::string::npos) << r.out;
  EXPECT_LT(jit, r.out.find("\n9.0\n")) << r.out;  // the printed value, not a time such as "9.04us"
  // nothing is scheduled for the replay: no "scheduled" line between the last copy and the (jit) line
  EXPECT_LT(r.out.rfind("scheduled", jit), r.out.rfind("CPU <- HOST", jit)) << r.out;
}

TEST(CliJit, JsonMarksReplays) {
  const Result r = run_here({"--json", "-e", kThreeCalls});
  ASSERT_EQ(r.status, 0) << r.err;
  int replayed = 0, plain = 0;
  for (const nlohmann::json& e : json_lines(r.out)) {
    if (e["event"] != "kernel" && e["event"] != "copy") continue;
    ASSERT_TRUE(e["jit"].is_boolean()) << e;
    (e["jit"].get<bool>() ? replayed : plain)++;
    if (e["jit"].get<bool>()) {
      EXPECT_EQ(e["line"], 8) << e;
    }
  }
  EXPECT_EQ(replayed, 1);
  EXPECT_GT(plain, 2);
}

TEST(CliJit, TheTraceMarksReplays) {
  const testing::TempDir dir;
  const std::string path = dir.file("trace.json");
  const Result r = run_here({"-e", std::string(kThreeCalls) + ":trace " + path + "\n"});
  ASSERT_EQ(r.status, 0) << r.err;
  int replayed = 0;
  const nlohmann::json trace = nlohmann::json::parse(testing::read_file(path));
  for (const nlohmann::json& e : trace["traceEvents"]) replayed += e["args"]["jit"].get<bool>();
  EXPECT_EQ(replayed, 1);
}

TEST(CliJit, JitListsCapturesAndReplaysAndTimeMarksThem) {
  const Result before = run_here({"-e", ":jit"});
  EXPECT_CONTAINS(before.out, "no @jit function yet");
  const Result r = run_here({"-e", std::string(kThreeCalls) + "c = dot(y, x)\n:jit\n:time\n"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "dot: 4 calls, captured 1 kernel and 0 copies on call 2, replayed 2 times\n");
  EXPECT_CONTAINS(r.out, "    0 r_3");
  EXPECT_CONTAINS(r.out, "replayed 2\n");
  EXPECT_CONTAINS(r.out, " (jit) ");
  const Result once = run_here({"-e", "@jit\ndef f(x):\n  return x + 1\n\nf(ones(2))\n:jit\n"});
  EXPECT_CONTAINS(once.out, "f: 1 call, not captured yet (the second call captures)\n");
}

}  // namespace
}  // namespace tr::repl
