// Variable and bind in the .tg language: bound Variables in shapes make symbolic dims whose kernels
// compile once for every value; out-of-range binds and misplaced Variables are errors at their token.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/realize/realize.h"
#include "tests/session_testing.h"

namespace tr::repl {
namespace {

using SymbolicLanguage = testing::SessionTest;

TEST_F(SymbolicLanguage, VariableBindAndVal) {
  run("n = Variable('n', 1, 10)\nb = n.bind(4)");
  EXPECT_EQ(repr("n"), "Variable('n', 1, 10)");
  EXPECT_EQ(repr("b"), "Variable('n', 1, 10).bind(4)");
  EXPECT_EQ(repr("b.val"), "4");
  EXPECT_EQ(repr("(n.min, n.max)"), "(1, 10)");
}

TEST_F(SymbolicLanguage, ShapesCompileOnceForEveryValue) {
  run("n = Variable('n', 1, 16)\nx = Tensor.arange(64).reshape(16, 4).float().realize()");
  std::set<std::string> sources;
  for (int v = 1; v <= 16; v++) {
    run(fmt::format("y = x[:n.bind({})].sum(0).realize()", v));
    sources.insert(*last_realization().runs.back().kernel.source);
    const int64_t rows = v;
    // column c sums 4*i + c over i < v
    EXPECT_EQ(repr("y.tolist()[1]"), fmt::format("{}.0", 4 * rows * (rows - 1) / 2 + rows));
  }
  EXPECT_EQ(sources.size(), 1u);
  run("z = (Tensor.ones(n.bind(3), 4) * 2).sum(0).realize()");
  EXPECT_EQ(repr("z.tolist()"), "[6.0, 6.0, 6.0, 6.0]");
  run("r = Tensor.arange(n.bind(5)).sum().realize()");
  EXPECT_EQ(repr("r.item()"), "10");
  run("f = Tensor.full((n.bind(2), 3), 1.5).sum().realize()");
  EXPECT_EQ(repr("f.item()"), "9.0");
  run("w = Tensor.arange(12).reshape(n.bind(3), 4).sum(1).realize()");
  EXPECT_EQ(repr("w.tolist()"), "[6, 22, 38]");
}

// n + 1, n - 1, 2 * n of a Variable: a size that grows with it, in shapes and slices as n is; one
// program for every value.
TEST_F(SymbolicLanguage, SizesThatGrowWithTheVariable) {
  run("n = Variable('n', 1, 16)\nb = n.bind(3)");
  EXPECT_EQ(repr("b + 1"), "(n+1) of Variable('n', 1, 16).bind(3)");
  EXPECT_EQ(repr("(2 * b).val, (b * 2 - 1).val, (n + 1).min, (n * 4).max, (n * 2 + 1).expr"), "(6, 5, 2, 64, '((n*2)+1)')");
  run("x = Tensor.arange(128).float().realize()");
  std::set<std::string> sources;
  for (int v = 1; v <= 16; v++) {
    run(fmt::format("y = x[:n.bind({}) * 8 - 1].sum().realize()", v));
    sources.insert(*last_realization().runs.back().kernel.source);
    const int len = 8 * v - 1;
    EXPECT_EQ(repr("y.item()"), fmt::format("{}.0", len * (len - 1) / 2)) << "n = " << v;
  }
  EXPECT_EQ(sources.size(), 1u);
  run("z = Tensor.ones(2 * n.bind(5), 3).sum(0).realize()");
  EXPECT_EQ(repr("z.tolist()"), "[10.0, 10.0, 10.0]");
  run("w = Tensor.arange(n.bind(4) + 1).realize()");
  EXPECT_EQ(repr("w.tolist()"), "[0, 1, 2, 3, 4]");
}

TEST_F(SymbolicLanguage, BadInputIsAnErrorAtItsToken) {
  run("n = Variable('n', 2, 8)\nx = Tensor.ones(10)");
  EXPECT_EQ(std::string(error("n.bind(9)").what()), "cannot bind n to 9: it must lie in [2, 8]");
  EXPECT_EQ(std::string(error("Tensor.ones(n, 4)").what()), "Variable n is not bound: give it a value with n.bind(v)");
  EXPECT_EQ(std::string(error("n.val").what()), "Variable n is not bound: .val needs n.bind(v) first");
  EXPECT_EQ(std::string(error("x[n.bind(2):]").what()), "a Variable can only be a slice's stop, as in x[:n]");
  EXPECT_EQ(std::string(error("Variable('n', 0, 4)").what()), "Variable n needs 1 <= lo < hi, not [0, 4]");
  EXPECT_EQ(std::string(error("Tensor.ones(10, 4)[:n.bind(8)].flip(0)").what()).find("cannot flip the symbolic dim 0"), 0u);
  // sizes that grow with n: + and * by an int, - an int, and never below 1
  EXPECT_EQ(std::string(error("n - 2").what()), "(n+-2) is not a size: it is 0 when n is 2");
  EXPECT_EQ(std::string(error("n * 0").what()), "a symbolic size grows with its Variable: n times 0 does not");
  EXPECT_EQ(std::string(error("n / 2").what()).find("unsupported operand types for /: 'Variable' and 'int'"), 0u);
  EXPECT_EQ(std::string(error("2 - n").what()).find("unsupported operand types for -: 'int' and 'Variable'"), 0u);
  EXPECT_EQ(std::string(error("(n + 1).bind(3)").what()), "bind gives a Variable its value: bind n before (n+1)");
  EXPECT_NE(std::string(error("Tensor.ones(10)[:n.bind(8) + 3]").what()).find("stops at 11, past the dim's 10 elements"),
            std::string::npos);
}

}  // namespace
}  // namespace tr::repl
