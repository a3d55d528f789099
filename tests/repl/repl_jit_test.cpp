// @jit: the first call runs plainly, the second captures, later ones replay the captured kernels on
// the new inputs; tinygrad's errors for what a replay cannot serve.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/base/context.h"
#include "core/runtime/device.h"
#include "core/jit/jit.h"
#include "core/realize/realize.h"
#include "tests/session_testing.h"

namespace tr::repl {
namespace {

class JitCalls : public testing::SessionTest {
 protected:
  // The last realization's runs: how many there were, and how many of them a replay launched.
  static std::pair<size_t, size_t> last_runs() {
    const std::vector<RunRecord>& runs = last_realization().runs;
    return {runs.size(), std::count_if(runs.begin(), runs.end(), [](const RunRecord& r) { return r.replayed; })};
  }
};

TEST_F(JitCalls, CapturesOnTheSecondCallAndReplaysFromTheThird) {
  run("@jit\ndef dot(a, b):\n  return (a * b).sum()\n");
  run("r1 = dot(tensor([1., 2., 3.]), tensor([4., 5., 6.]))");
  EXPECT_EQ(last_runs().second, 0u);
  run("r2 = dot(tensor([1., 1., 1.]), tensor([2., 2., 2.]))");
  EXPECT_EQ(last_runs().second, 0u);
  run("a = tensor([1., 0., 2.]).realize(); b = tensor([3., 3., 3.]).realize()");
  const size_t at = history().count();
  run("r3 = dot(a, b)");
  // a replay schedules nothing and launches only what the capture ran: one kernel, replayed
  EXPECT_TRUE(last_realization().schedule.empty());
  EXPECT_EQ(last_runs(), (std::pair<size_t, size_t>{1, 1}));
  EXPECT_EQ(history().count(), at + 1);
  EXPECT_EQ(repr("r1.item()"), "32.0");
  EXPECT_EQ(repr("r2.item()"), "6.0");
  EXPECT_EQ(repr("r3.item()"), "9.0");
  EXPECT_EQ(repr("dot(tensor([2., 2., 2.]), tensor([1., 2., 3.])).item()"), "12.0");
  const std::vector<JitSummary> jits = jit_summaries();
  const auto dot = std::find_if(jits.begin(), jits.end(), [](const JitSummary& s) { return s.name == "dot"; });
  ASSERT_NE(dot, jits.end());
  EXPECT_EQ(dot->calls, 4);
  EXPECT_EQ(dot->replays, 2);
}

TEST_F(JitCalls, OutputsAreNewEachCall) {
  run("@jit\ndef f(x):\n  return x * 2, (x + 1).sum()\n");
  run("f(tensor([1, 2]))\np2, s2 = f(tensor([3, 4]))\np3, s3 = f(tensor([5, 6]))\np4, s4 = f(tensor([7, 8]))");
  EXPECT_EQ(repr("p2.tolist()"), "[6, 8]");
  EXPECT_EQ(repr("p3.tolist()"), "[10, 12]");
  EXPECT_EQ(repr("p4.tolist()"), "[14, 16]");
  EXPECT_EQ(repr("(s2.item(), s3.item(), s4.item())"), "(9, 13, 17)");
}

TEST_F(JitCalls, ReplaysReadWeightsThatAssignReplaced) {
  // an assign is lazy, as tinygrad's: the step realizes it, or neither a plain run nor a capture writes w
  const std::string step = "def step(x):\n  w.assign(w - 0.5 * (x * w))\n  return realize((w * w).sum(), w)[0]\n";
  run("w = tensor([1., 2., 4.]).contiguous().realize()\n" + step);
  run("losses = []\nfor i in range(5):\n  losses = losses + [step(tensor([1., 0.5, 0.25])).item()]\nplain = w.tolist()");
  run("w.assign(tensor([1., 2., 4.]))\nw.realize()\n@jit\n" + step);
  run("jitted = []\nfor i in range(5):\n  jitted = jitted + [step(tensor([1., 0.5, 0.25])).item()]");
  EXPECT_EQ(repr("jitted"), repr("losses"));
  EXPECT_EQ(repr("w.tolist()"), repr("plain"));
}

// Adam written out with assign(), as scripts/examples/12_spirals_mlp_adam.tg trains: every replayed
// step must give the losses and weights of the plain steps, to the bit.
TEST_F(JitCalls, ATrainingStepWithAdamReplaysAsItRunsPlainly) {
  const std::string setup =
      "X = randn(32, 2, seed=3, dtype=float64).realize()\nY = (X[:, :1] * X[:, 1:] > 0).cast(float64).realize()\n"
      "w1 = randn(2, 8, seed=1, dtype=float64).realize()\nw2 = randn(8, 1, seed=2, dtype=float64).realize()\n"
      "params = [w1, w2]\nms = [zeros(2, 8, dtype=float64).contiguous().realize(), zeros(8, 1, dtype=float64).contiguous().realize()]\n"
      "vs = [zeros(2, 8, dtype=float64).contiguous().realize(), zeros(8, 1, dtype=float64).contiguous().realize()]\n"
      "b1t = ones(1, dtype=float64).contiguous().realize()\n";
  const std::string step =
      "def step():\n"
      "  loss = ((X @ w1).relu() @ w2 - Y).square().mean()\n"
      "  grads = loss.gradient(w1, w2)\n"
      "  b1t.assign(b1t * 0.9)\n"
      "  for i in range(2):\n"
      "    ms[i].assign(0.9 * ms[i] + 0.1 * grads[i])\n"
      "    vs[i].assign(0.999 * vs[i] + 0.001 * grads[i] * grads[i])\n"
      "    params[i].assign(params[i] - 0.05 * (ms[i] / (1 - b1t)) / (vs[i].sqrt() + 1e-8))\n"
      "  return realize(loss, b1t, *ms, *vs, *params)[0]\n";
  const std::string train = "losses = []\nfor i in range(8):\n  losses = losses + [step().item()]\n";
  run(setup + step + train + "plain = (losses, w1.tolist(), w2.tolist())");
  run(setup + "@jit\n" + step + train);
  EXPECT_EQ(repr("(losses, w1.tolist(), w2.tolist())"), repr("plain"));
}

// Equal graphs are one node: a and b below start as one buffer, and inputs with equal values are
// one buffer too. The capture reads each as its own tensor.
TEST_F(JitCalls, TensorsThatShareABufferStayApart) {
  const std::string step = "def step(x, y):\n  a.assign(a + x)\n  b.assign(b + 2 * y)\n  return a * 10 + b\n";
  const std::string calls = "r = []\nfor i in range(4):\n  r = r + [step(tensor([1., 2.]), tensor([1., 2.])).tolist()]\n";
  run("a = zeros(2).contiguous().realize()\nb = zeros(2).contiguous().realize()\n" + step + calls +
      "plain = (r, a.tolist(), b.tolist())");
  run("a = zeros(2).contiguous().realize()\nb = zeros(2).contiguous().realize()\n@jit\n" + step + calls);
  EXPECT_EQ(repr("(r, a.tolist(), b.tolist())"), repr("plain"));
  EXPECT_EQ(repr("plain[1]"), "[4.0, 8.0]");
}

TEST_F(JitCalls, TensorsInsideAListArgumentAreInputs) {
  run("@jit\ndef total(xs):\n  return xs[0] + xs[1]\n");
  run("total([tensor([1]), tensor([2])])\ntotal([tensor([3]), tensor([4])])");
  EXPECT_EQ(repr("total([tensor([5]), tensor([6])]).tolist()"), "[11]");
  EXPECT_EQ(last_runs().second, last_runs().first);
}

TEST_F(JitCalls, AChangedShapeOrDtypeIsAnError) {
  run("@jit\ndef f(x):\n  return x + 1\nf(zeros(3))\nf(zeros(3))");
  SourceError e = error("f(zeros(4))");
  EXPECT_EQ(e.kind(), "jit");
  EXPECT_NE(std::string(e.what()).find("args mismatch in JIT"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("(3,)"), std::string::npos) << e.what();
  e = error("f(zeros(3, dtype=int32))");
  EXPECT_NE(std::string(e.what()).find("args mismatch in JIT"), std::string::npos) << e.what();
  e = error("f(x=zeros(3))");
  EXPECT_NE(std::string(e.what()).find("args mismatch in JIT"), std::string::npos) << e.what();
  EXPECT_EQ(repr("f(ones(3)).tolist()"), "[2.0, 2.0, 2.0]");
}

TEST_F(JitCalls, TinygradsCaptureErrors) {
  run("@jit\ndef same(x):\n  return x\nsame(ones(2))");
  EXPECT_NE(std::string(error("same(ones(2))").what()).find("didn't JIT anything!"), std::string::npos);
  run("@jit\ndef pair(x):\n  return x.sum(), 3\npair(ones(2))");
  EXPECT_NE(std::string(error("pair(ones(2))").what()).find("JIT return contains non-Tensor value of type int"),
            std::string::npos);
  run("@jit\ndef add(a, b):\n  return a + b\nx = ones(2).contiguous().realize()");
  EXPECT_NE(std::string(error("add(x, x)").what()).find("duplicate inputs to JIT"), std::string::npos);
  run("@jit\ndef inner(x):\n  return x * 3\ninner(ones(2))\n@jit\ndef outer(x):\n  return inner(x) + 1\nouter(ones(2))");
  EXPECT_NE(std::string(error("outer(ones(2))").what()).find("having TinyJit inside another TinyJit is not supported"),
            std::string::npos);
  // a failed capture leaves nothing half done: the next call captures again
  run("@jit\ndef g(x):\n  return x * 2\ng(ones(2))\ng(ones(2))");
  EXPECT_EQ(repr("g(ones(2)).tolist()"), "[2.0, 2.0]");
  EXPECT_EQ(error("@jit\n@jit\ndef h(x):\n  return x\n").kind(), "type");
}

TEST_F(JitCalls, SelectionsOfADataLengthNeedSizeInside) {
  run("@jit\ndef pos(x):\n  return x.masked_select(x > 0)\npos(tensor([1., -1., 2.]))");
  SourceError e = error("pos(tensor([1., -1., 2.]))");
  EXPECT_EQ(e.kind(), "jit");
  EXPECT_NE(std::string(e.what()).find("masked_select without size= reads its length back"), std::string::npos) << e.what();
  run("@jit\ndef nz(x):\n  return x.nonzero()\nnz(tensor([1., 0.]))");
  EXPECT_NE(std::string(error("nz(tensor([1., 0.]))").what()).find("nonzero without size="), std::string::npos);
  // with size= the length is fixed, and a replay selects from the new input
  run("@jit\ndef pos3(x):\n  return x.masked_select(x > 0, size=3)\n"
      "pos3(tensor([1., -1., 2.]))\npos3(tensor([3., 1., -2.]))");
  EXPECT_EQ(repr("pos3(tensor([-1., 5., 6.])).tolist()"), "[5.0, 6.0, 0.0]");
  EXPECT_EQ(repr("pos3(tensor([7., -5., -6.])).tolist()"), "[7.0, 0.0, 0.0]");
}

// Sharding inside a jitted function replays (its inputs and outputs are on one device); a sharded
// input or output is refused with the reason, since a capture binds each to one buffer.
TEST_F(JitCalls, ShardingInsideReplaysAndShardedArgumentsAreRefused) {
  run("devs = ('CPU', 'CPU:1')\nw = rand(8, 4, seed=9, device='CPU').realize()");
  run("@jit\ndef g(x, w):\n  return (x.shard(devs, axis=0) @ w.shard(devs)).relu().sum(1).to('CPU')\n");
  for (int i = 0; i < 3; i++) {
    run(fmt::format("x = rand(6, 8, seed={}, device='CPU').realize()\ngot = g(x, w)", i));
    // the third call replays: kernels on both devices and the copies between them
    if (i == 2) {
      EXPECT_EQ(last_runs().first, last_runs().second);
      EXPECT_GT(last_runs().second, 2u);
    }
    run("assert (got - (x @ w).relu().sum(1)).abs().max() < 1e-5");
  }
  EXPECT_NE(std::string(error("g(x.shard(devs, axis=0), w)").what()).find("an input is a tensor on (CPU, CPU:1)"),
            std::string::npos);
  run("@jit\ndef h(x):\n  return x.shard(devs, axis=0) * 2\n");
  run("h(ones(4, 4, device='CPU'))");
  EXPECT_NE(std::string(error("h(ones(4, 4, device='CPU'))").what()).find("it returns a tensor on (CPU, CPU:1)"),
            std::string::npos);
}

}  // namespace
}  // namespace tr::repl
