// @jit replays on a device with graphs: the CPU device under the name GRAPHS, whose graphs run each
// launch on the CPU and count their starts and waits. A replay's consecutive kernels reach it as one
// graph, a replay returns before its launches are waited for, and a statement that fails after a
// replay (or whose wait fails) still settles it, in the program as a user runs it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/base/context.h"
#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/jit/jit.h"
#include "core/realize/realize.h"
#include "tests/cli_testing.h"
#include "tests/session_testing.h"

namespace tr::repl {
namespace {

// The CPU device under another name, with graphs that run each launch on the CPU and count their
// starts: a replay's consecutive kernels must reach the device as one graph.
struct GraphCounts {
  int made = 0, starts = 0;
  size_t launches = 0;
  std::vector<std::string> log;  // "start" at each start, "wait" when its result is called
  bool fail_wait = false;        // the wait throws, as a device's error would
};

GraphCounts& graph_counts() {
  static GraphCounts c;
  return c;
}

class CountedGraph : public LaunchGraph {
 public:
  std::function<std::vector<double>()> start(const std::vector<GraphLaunch>& launches) override {
    graph_counts().starts++;
    graph_counts().launches += launches.size();
    graph_counts().log.push_back("start");
    std::vector<double> seconds;
    for (const GraphLaunch& l : launches) seconds.push_back(l.program->run(l.bufs, *l.dims, l.vars));
    return [seconds] {
      graph_counts().log.push_back("wait");
      if (graph_counts().fail_wait) fail("device", "the graph failed on the device");
      return seconds;
    };
  }
};

class GraphDevice : public Device {
 public:
  explicit GraphDevice(Device& cpu) : cpu_(cpu) {}
  const std::string& name() const override { return name_; }
  const std::string& backend() const override { return cpu_.backend(); }
  Target target() const override { return cpu_.target(); }
  BufferRef alloc(DType dtype, int64_t size) override {
    const BufferRef b = cpu_.alloc(dtype, size);
    return std::make_shared<Buffer>(Buffer{name_, b->dtype, b->size, b->mem});
  }
  void copyin(const Buffer& dst, const void* src) override { cpu_.copyin(dst, src); }
  void copyout(void* dst, const Buffer& src) override { cpu_.copyout(dst, src); }
  std::unique_ptr<Program> compile(const UOpProgram& program, const std::string& source, bool& cached) override {
    return cpu_.compile(program, source, cached);
  }
  std::unique_ptr<LaunchGraph> graph(const std::vector<Program*>&) override {
    graph_counts().made++;
    return std::make_unique<CountedGraph>();
  }

 private:
  std::string name_ = "GRAPHS";
  Device& cpu_;
};

class JitGraphs : public testing::SessionTest {
 protected:
  // The last realization's runs: how many there were, and how many of them a replay launched.
  static std::pair<size_t, size_t> last_runs() {
    const std::vector<RunRecord>& runs = last_realization().runs;
    return {runs.size(), std::count_if(runs.begin(), runs.end(), [](const RunRecord& r) { return r.replayed; })};
  }

  void SetUp() override {
    static const bool registered = [] {
      // the CPU device opens first: the registry opens one device at a time
      register_device({"GRAPHS", [cpu = &device("CPU")](int) { return std::make_unique<GraphDevice>(*cpu); }});
      return true;
    }();
    (void)registered;
    graph_counts() = {};
    saved_ = settings();
    settings().device = "GRAPHS";
  }
  void TearDown() override { settings() = saved_; }

  // f: an element-wise kernel, then a reduce of it, then a kernel of the reduce
  void define_and_call(int calls) {
    run("@jit\ndef f(a):\n  b = (a * 2).contiguous()\n  s = b.sum().contiguous()\n  return (b + s).realize()\n");
    for (int i = 1; i <= calls; i++) run(fmt::format("y{} = f(tensor([1., 2., {}.]))", i, i));
  }

 private:
  Settings saved_;
};

TEST_F(JitGraphs, AReplaysKernelsReachTheirDeviceAsOneGraph) {
  define_and_call(4);
  EXPECT_EQ(last_runs(), (std::pair<size_t, size_t>{3, 3}));
  EXPECT_EQ(graph_counts().made, 1);
  EXPECT_EQ(graph_counts().starts, 2);     // calls 3 and 4
  EXPECT_EQ(graph_counts().launches, 6u);  // the three kernels each time
  EXPECT_EQ(repr("y4.tolist()"), "[16.0, 18.0, 22.0]");
  EXPECT_EQ(repr("y3.tolist()"), "[14.0, 16.0, 18.0]");
}

TEST_F(JitGraphs, ACopyOrAnotherDeviceEndsAGraph) {
  // two kernels on GRAPHS, a copy to the CPU, a kernel there: one graph of the first two
  run("@jit\ndef g(a):\n  b = (a * 2).contiguous()\n  s = (b + 1).contiguous()\n  return (s.to(\"CPU\") * 3).realize()\n");
  for (int i = 1; i <= 4; i++) run(fmt::format("z{} = g(tensor([1., {}.]))", i, i));
  EXPECT_EQ(last_runs(), (std::pair<size_t, size_t>{4, 4}));
  EXPECT_EQ(graph_counts().made, 1);
  EXPECT_EQ(graph_counts().starts, 2);
  EXPECT_EQ(graph_counts().launches, 4u);
  EXPECT_EQ(repr("z4.tolist()"), "[9.0, 27.0]");
  EXPECT_EQ(repr("z4.device"), "'CPU'");
}

// A replay returns while its launches run: it waits for their times once the next replay has started
// its own, or when something reads the history (here last_runs()); under DEBUG 2 at once.
TEST_F(JitGraphs, AReplayReturnsBeforeItsLaunchesAreWaitedFor) {
  run("@jit\ndef f(a):\n  b = (a * 2).contiguous()\n  s = b.sum().contiguous()\n  return (b + s).realize()\n");
  for (int i = 1; i <= 7; i++) run(fmt::format("a{} = tensor([1., 2., {}.]).realize()", i, i));
  run("y1 = f(a1)\ny2 = f(a2)");
  run("y3 = f(a3)\ny4 = f(a4)\ny5 = f(a5)");
  EXPECT_EQ(graph_counts().log, (std::vector<std::string>{"start", "start", "wait", "start", "wait"}));
  EXPECT_EQ(last_runs(), (std::pair<size_t, size_t>{3, 3}));
  EXPECT_EQ(graph_counts().log.size(), 6u);
  EXPECT_EQ(history().since(history().count() - 9).size(), 9u);  // three replays of three kernels
  EXPECT_EQ(repr("y3.tolist()"), "[14.0, 16.0, 18.0]");
  EXPECT_EQ(repr("y5.tolist()"), "[18.0, 20.0, 26.0]");
  settings().debug = 2;
  graph_counts().log.clear();
  run("y6 = f(a6)\ny7 = f(a7)");
  EXPECT_EQ(graph_counts().log, (std::vector<std::string>{"start", "wait", "start", "wait"}));
}

// A statement that fails after a replay still has its records made before the next one, and an error
// raised while waiting for them is that statement's error: the program goes on.
TEST_F(JitGraphs, AStatementThatFailsAfterAReplaySettlesIt) {
  const std::string program =
      "@jit\ndef f(a):\n  return (a * 2).contiguous().sum().realize()\n"
      "a = tensor([1., 2.]).realize()\nf(a)\nf(a)\n"
      "for i in range(1):\n  y = f(a)\n  nope\n\n"
      "print('after', y.item())\n";
  // piped in as a session: an error ends its statement, and the session goes on
  testing::Result r = testing::run_here({"--device", "GRAPHS"}, program);
  EXPECT_CONTAINS(r.err, "name 'nope' is not defined");
  EXPECT_CONTAINS(r.out, "after 6.0");
  EXPECT_EQ(graph_counts().log, (std::vector<std::string>{"start", "wait"}));
  graph_counts() = {};
  graph_counts().fail_wait = true;
  r = testing::run_here({"--device", "GRAPHS"}, program);
  EXPECT_CONTAINS(r.err, "name 'nope' is not defined");
  EXPECT_CONTAINS(r.err, "the graph failed on the device");
  EXPECT_CONTAINS(r.out, "after 6.0");
}

TEST_F(JitGraphs, Jit2ReplaysLaunchByLaunchAndJit0RunsPlainly) {
  settings().jit = 2;
  define_and_call(4);
  EXPECT_EQ(last_runs(), (std::pair<size_t, size_t>{3, 3}));
  EXPECT_EQ(graph_counts().made, 0);
  EXPECT_EQ(repr("y4.tolist()"), "[16.0, 18.0, 22.0]");
  settings().jit = 0;
  run("@jit\ndef g(a):\n  return (a + 1).realize()\n");
  for (int i = 0; i < 3; i++) run("z = g(tensor([1., 2.]))");
  EXPECT_EQ(last_runs().second, 0u);
  EXPECT_EQ(repr("z.tolist()"), "[2.0, 3.0]");
}

}  // namespace
}  // namespace tr::repl
