// @jit across values of a Variable from outside: :jit says when a capture serves every value and how
// often one was dropped for a value it could not serve; DEBUG 2 marks the replays with other values.
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "tests/cli_testing.h"

namespace tr::repl {
namespace {

using testing::Result;
using testing::run_here;

constexpr const char* kSetUp =
    "n = Variable('n', 1, 8)\nx = tensor(list(range(32)), dtype=float32).reshape(8, 4).realize()\n";

TEST(CliJitSymbolic, JitSaysACaptureServesEveryValue) {
  const Result r = run_here({"--debug", "2", "-e", fmt::format("{}@jit\ndef f(a, v):\n  return (a[:v] * 2).sum(0)\n\n"
                                                             "for v in range(1, 6):\n  print(f(x, n.bind(v)))\n\n:jit\n",
                                                             kSetUp)});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "f: 5 calls, captured 1 kernel and 0 copies on call 2, replayed 3 times, for any value of n\n");
  // calls 3, 4 and 5: three kernel lines marked (jit), with their values printed after them
  size_t marked = 0;
  for (size_t at = r.out.find(" (jit)\n"); at != std::string::npos; at = r.out.find(" (jit)\n", at + 1)) marked++;
  EXPECT_EQ(marked, 3u) << r.out;
  EXPECT_CONTAINS(r.out, "[ 80.  90. 100. 110.]");
}

TEST(CliJitSymbolic, JitCountsCapturesDroppedForANewValue) {
  const std::string m = fmt::format("{}@jit\ndef m(a, v):\n  return a[:v].mean(0)\n\n", kSetUp);
  const Result r = run_here({"-e", fmt::format("{}for v in range(1, 6):\n  r = m(x, n.bind(v))\n\n:jit\n", m)});
  ASSERT_EQ(r.status, 0) << r.err;
  // calls 1, 3 and 5 run plainly (3 and 5 each drop the capture before them), 2 and 4 capture
  EXPECT_CONTAINS(r.out, "m: 5 calls, its capture dropped 2 times for a new value of a Variable; the call after the next "
                         "plain one captures again\n");
  const Result s = run_here({"-e", fmt::format("{}for v in range(1, 7):\n  r = m(x, n.bind(v))\n\n:jit\n", m)});
  EXPECT_CONTAINS(s.out, "m: 6 calls, captured 1 kernel and 0 copies on call 6, replayed 0 times (captured again 2 times)\n");
}

}  // namespace
}  // namespace tr::repl
