// Variable and bind in the .tg language: bound Variables in shapes make symbolic dims whose kernels
// compile once for every value; out-of-range binds and misplaced Variables are errors at their token.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/realize.h"
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

TEST_F(SymbolicLanguage, BadInputIsAnErrorAtItsToken) {
  run("n = Variable('n', 2, 8)\nx = Tensor.ones(10)");
  EXPECT_EQ(std::string(error("n.bind(9)").what()), "cannot bind n to 9: it must lie in [2, 8]");
  EXPECT_EQ(std::string(error("Tensor.ones(n, 4)").what()), "Variable n is not bound: give it a value with n.bind(v)");
  EXPECT_EQ(std::string(error("n.val").what()), "Variable n is not bound: .val needs n.bind(v) first");
  EXPECT_EQ(std::string(error("x[n.bind(2):]").what()), "a Variable can only be a slice's stop, as in x[:n]");
  EXPECT_EQ(std::string(error("Variable('n', 0, 4)").what()), "Variable n needs 1 <= lo < hi, not [0, 4]");
  EXPECT_EQ(std::string(error("Tensor.ones(10, 4)[:n.bind(8)].flip(0)").what()).find("cannot flip the symbolic dim 0"), 0u);
}

}  // namespace
}  // namespace tr::repl
