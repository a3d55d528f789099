// @jit across values of a Variable: a capture whose kernels take the Variable replays them for every
// bound value (no scheduling, lowering or compiling, counted in the history); one whose kernels hold
// the value captures again; a changed concrete shape stays tinygrad's error.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/base/context.h"
#include "core/jit/jit.h"
#include "core/realize/realize.h"
#include "tests/session_testing.h"

namespace tr::repl {
namespace {

class JitVariables : public testing::SessionTest {
 protected:
  void SetUp() override { clear_history(); }

  // Kernel runs in the history so far: those a schedule lowered, and those a replay launched.
  struct Counts {
    size_t lowered = 0, replayed = 0;
    bool operator==(const Counts&) const = default;
  };
  static Counts counts() {
    Counts c;
    for (const RunRecord& r : history().since(0))
      if (!r.is_copy) (r.replayed ? c.replayed : c.lowered)++;
    return c;
  }

  static JitSummary summary(const std::string& name) {
    const std::vector<JitSummary> all = jit_summaries();
    const auto it = std::find_if(all.begin(), all.end(), [&](const JitSummary& s) { return s.name == name; });
    EXPECT_NE(it, all.end()) << name;
    return it == all.end() ? JitSummary{} : *it;
  }
};

TEST_F(JitVariables, OneCaptureReplaysForEveryValue) {
  run("n = Variable('n', 1, 16)\nx = Tensor.arange(64).reshape(16, 4).float().realize()\n"
      "@jit\ndef f(a):\n  return (a * 2 + 1).sum(0), a * 3\n");
  for (int v = 1; v <= 16; v++) {
    run(fmt::format("s, e = f(x[:n.bind({})])", v));
    // column c: sum over i < v of 2 * (4i + c) + 1
    EXPECT_EQ(repr("s.tolist()[1]"), fmt::format("{}.0", 4 * v * (v - 1) + 2 * v + v)) << "n = " << v;
    EXPECT_EQ(repr("e.shape"), fmt::format("({}, 4)", v));
    EXPECT_EQ(repr("e.tolist()"), repr(fmt::format("(Tensor.arange({}).reshape({}, 4).float() * 3).tolist()", 4 * v, v)));
  }
  // f's two kernels were lowered by calls 1 and 2 only (the checks above lower their own kernels,
  // none of them f's); calls 3..16 replayed them with n's value
  size_t f_lowered = 0;
  for (const RunRecord& r : history().since(0))
    if (!r.is_copy && !r.replayed && r.kernel.program->vars == std::vector<std::string>{"n"}) f_lowered++;
  EXPECT_EQ(f_lowered, 2u * 2u);
  EXPECT_EQ(counts().replayed, 2u * 14u);
  const JitSummary s = summary("f");
  EXPECT_EQ(s.replays, 14);
  EXPECT_EQ(s.captured_on, 2);
  EXPECT_EQ(s.recaptures, 0);
  EXPECT_EQ(s.serves, std::vector<std::string>{"n"});
}

// A size that grows with the Variable (4 * k - 1 elements) replays for every value of it too.
TEST_F(JitVariables, ASizeThatGrowsWithTheVariableReplays) {
  run("n = Variable('n', 1, 16)\nx = Tensor.arange(64).float().realize()\n"
      "@jit\ndef g(a, k):\n  return (a[:k * 4 - 1] * 2).sum()\n");
  for (int v = 1; v <= 16; v++) {
    run(fmt::format("s = g(x, n.bind({}))", v));
    const int len = 4 * v - 1;
    EXPECT_EQ(repr("s.item()"), fmt::format("{}.0", len * (len - 1))) << "n = " << v;
  }
  const JitSummary s = summary("g");
  EXPECT_EQ(s.replays, 14);
  EXPECT_EQ(s.recaptures, 0);
  EXPECT_EQ(s.serves, std::vector<std::string>{"n"});
}

TEST_F(JitVariables, ReplaysCompileAndLowerNothing) {
  run("n = Variable('n', 1, 32)\nx = Tensor.arange(32).float().realize()\n"
      "@jit\ndef f(a):\n  return (a * a).sum()\n"
      "f(x[:n.bind(1)])\nf(x[:n.bind(2)])");
  const Counts before = counts();
  for (int v = 3; v <= 32; v++) run(fmt::format("r = f(x[:n.bind({})])", v));
  EXPECT_EQ(counts(), (Counts{before.lowered, before.replayed + 30}));
  // each replay passed its own value as the kernel's argument
  std::vector<int32_t> passed, expected;
  for (const RunRecord& r : history().since(0))
    if (r.replayed) passed.push_back(r.kernel.vars.at(0));
  for (int v = 3; v <= 32; v++) expected.push_back(v);
  EXPECT_EQ(passed, expected);
  EXPECT_EQ(repr("r.item()"), fmt::format("{}.0", 31 * 32 * 63 / 6));
}

TEST_F(JitVariables, ABoundVariableArgumentPassesItsValue) {
  run("n = Variable('n', 1, 16)\nw = Tensor.arange(16).float().realize()\n"
      "@jit\ndef g(v):\n  return (w[:v] * 2).sum()\n"
      "g(n.bind(3))\ng(n.bind(4))");
  EXPECT_EQ(repr("g(n.bind(10)).item()"), "90.0");
  EXPECT_EQ(repr("g(n.bind(16)).item()"), "240.0");
  EXPECT_EQ(summary("g").replays, 2);
  EXPECT_NE(std::string(error("g(3)").what()).find("args mismatch in JIT: g was captured with Variable n bound to 4"),
            std::string::npos);
}

TEST_F(JitVariables, ReturnedViewsAndAssignsFollowTheValue) {
  run("n = Variable('n', 1, 8)\nx = tensor(list(range(32)), dtype=float32).reshape(8, 4).realize()\n"
      "acc = zeros(4).contiguous().realize()\n"
      "@jit\ndef f(a, v):\n  acc.assign(acc + a[:v].sum(0))\n  return (a[:v] * 2).T, realize(acc * 1)\n");
  for (int v = 1; v <= 6; v++) {
    run(fmt::format("t, q = f(x, n.bind({}))", v));
    EXPECT_EQ(repr("t.shape"), fmt::format("(4, {})", v));
    EXPECT_EQ(repr("t.tolist()"), repr(fmt::format("((x[:{}] * 2).T).tolist()", v)));
  }
  EXPECT_EQ(summary("f").replays, 4);
  // column c gains the sum over i < v of 4i + c for v = 1..6
  EXPECT_EQ(repr("acc.tolist()"), "[140.0, 161.0, 182.0, 203.0]");
  EXPECT_EQ(repr("q.tolist()"), "[140.0, 161.0, 182.0, 203.0]");
}

TEST_F(JitVariables, ACaptureWhoseCallsSharedTheValueCapturesAgain) {
  run("n = Variable('n', 1, 16)\nx = Tensor.arange(16).float().realize()\n"
      "@jit\ndef f(a):\n  return (a + 1).sum()\n"
      "f(x[:n.bind(5)])\nf(x[:n.bind(5)])");
  EXPECT_TRUE(summary("f").serves.empty());
  // the same value replays; another one runs plainly, and the call after it captures again
  EXPECT_EQ(repr("f(x[:n.bind(5)]).item()"), "15.0");
  EXPECT_EQ(summary("f").replays, 1);
  EXPECT_EQ(repr("f(x[:n.bind(7)]).item()"), "28.0");
  EXPECT_EQ(summary("f").recaptures, 1);
  EXPECT_EQ(repr("f(x[:n.bind(8)]).item()"), "36.0");
  const JitSummary s = summary("f");
  EXPECT_EQ(s.captured_on, 5);
  EXPECT_EQ(s.serves, std::vector<std::string>{"n"});
  EXPECT_EQ(repr("f(x[:n.bind(2)]).item()"), "3.0");
  EXPECT_EQ(summary("f").replays, 1);
}

TEST_F(JitVariables, AKernelThatHoldsTheValueIsNeverReplayedForAnother) {
  // mean divides by the count, a number in the kernel: its source differs per value
  run("n = Variable('n', 1, 16)\nx = Tensor.arange(64).reshape(16, 4).float().realize()\n"
      "@jit\ndef m(a):\n  return a.mean(0)\n");
  for (int v = 1; v <= 6; v++) {
    run(fmt::format("r = m(x[:n.bind({})])", v));
    EXPECT_EQ(repr("r.tolist()[0]"), fmt::format("{:.1f}", 2.0 * (v - 1))) << "n = " << v;
  }
  EXPECT_EQ(summary("m").replays, 0);
  EXPECT_TRUE(summary("m").serves.empty());
  EXPECT_EQ(repr("m(x[:n.bind(6)]).tolist()[0]"), "10.0");
  EXPECT_EQ(summary("m").replays, 1);
}

TEST_F(JitVariables, AChangedConcreteShapeIsTinygradsError) {
  run("n = Variable('n', 1, 16)\nx = Tensor.arange(64).reshape(16, 4).float().realize()\n"
      "y = Tensor.arange(48).reshape(16, 3).float().realize()\n"
      "@jit\ndef f(a):\n  return a * 2\nf(x[:n.bind(1)])\nf(x[:n.bind(2)])");
  const std::string e = error("f(y[:n.bind(3)])").what();
  // the session's device: CPU unless DEV names another (scripts/gpu-check runs this under DEV=CUDA)
  const std::string dev = settings().device;
  EXPECT_NE(e.find(fmt::format("args mismatch in JIT: input 0 of f was float32 (n,4):(4,1) on {} when captured, now float32 "
                               "(n,3):(3,1) on {}", dev, dev)),
            std::string::npos) << e;
  EXPECT_NE(std::string(error("f(x[:3])").what()).find("args mismatch in JIT"), std::string::npos);
  EXPECT_EQ(std::string(error("n.bind(17)").what()), "cannot bind n to 17: it must lie in [1, 16]");
  EXPECT_EQ(repr("f(x[:n.bind(3)]).tolist()[2]"), "[16.0, 18.0, 20.0, 22.0]");
}

}  // namespace
}  // namespace tr::repl
