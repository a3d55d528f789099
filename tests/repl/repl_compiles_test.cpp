// compiles(): the kernel programs this process has built, as the language sees the count. A new
// source adds one, a source built before adds none, and a symbolic kernel adds one for every value.
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "tests/session_testing.h"

namespace tr::repl {
namespace {

using Compiles = testing::SessionTest;

TEST_F(Compiles, CountsEachSourceOnce) {
  // a constant no other test in this process renders, so that its source is new here
  run("x = arange(8).float().realize()\nb = compiles()\ny = (x * 3.25).realize()");
  EXPECT_EQ(repr("compiles() - b"), "1");
  run("z = (arange(8).float().realize() * 3.25).realize()");
  EXPECT_EQ(repr("compiles() - b"), "1");
  run("w = (x * 4.25).realize()");
  EXPECT_EQ(repr("compiles() - b"), "2");
}

TEST_F(Compiles, ASymbolicKernelIsBuiltOnceForEveryValue) {
  run("n = Variable('n', 1, 32)\nx = arange(32).float().realize()\nb = compiles()");
  for (int v = 1; v <= 32; v++) run(fmt::format("y = (x[:n.bind({})] * 5.25).realize()", v));
  EXPECT_EQ(repr("compiles() - b"), "1");
}

TEST_F(Compiles, TakesNoArguments) {
  EXPECT_NE(std::string(error("compiles(1)").what()).find("compiles"), std::string::npos);
}

}  // namespace
}  // namespace tr::repl
