// The tinyrepl binary as a shell runs it: its forms, the environment variables and the options that
// override them, standard input as a script and as a session, and (on a pseudo-terminal) the plain
// REPL's readline editing, completion, continuation prompt, Ctrl-C, :step's pauses and history file.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>

#include <chrono>
#include <regex>

#include "core/runtime/device.h"
#include "tests/cli_testing.h"

namespace tr::repl {
namespace {

using testing::read_file;
using testing::Result;
using testing::run_binary;
using testing::TempDir;

TEST(CliBinary, HelpAndVersion) {
  const Result help = run_binary({"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_CONTAINS(help.out, "usage: tinyrepl");
  const Result version = run_binary({"--version"});
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.out, std::string("tinyrepl ") + TINYREPL_VERSION + "\n");
  const Result bad = run_binary({"--nope"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err, "error: unknown option '--nope'\nusage: tinyrepl --help\n");
}

TEST(CliBinary, ScriptsFromAFileFromRunAndFromStandardInput) {
  const TempDir dir;
  const std::string script = dir.write("s.tg", "x = arange(5)\nprint(x.sum())\nassert x.max() == 4\n");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{script}, {"run", script}}) {
    const Result r = run_binary(args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "10\n");
  }
  const std::string text = read_file(script);
  for (const char* stdin_name : {"-", "/dev/stdin"}) {
    const Result r = run_binary({"run", stdin_name}, text + "assert x.sum() == 11\n");
    EXPECT_EQ(r.status, 1) << stdin_name;
    EXPECT_EQ(r.out, "10\n");
    EXPECT_CONTAINS(r.err, std::string(stdin_name) == "-" ? "<stdin>:4:" : "/dev/stdin:4:");
  }
}

TEST(CliBinary, CodeFromDashE) {
  const Result r = run_binary({"-e", "a = ones(2, 2)\nprint(a.sum(axis=0)); print(a.shape)"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "[2. 2.]\n(2, 2)\n");
}

// A ';' ends a meta command as it ends a statement.
TEST(CliBinary, MetaCommandsAreSeparatedBySemicolonsInDashE) {
  const Result r = run_binary({"-e", "print(arange(4).sum()); :kernels; :noopt on; print(1)"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(r.out.starts_with("6\n")) << r.out;
  EXPECT_TRUE(r.out.ends_with("\n1\n")) << r.out;
  EXPECT_CONTAINS(r.out, "r_4");
}

TEST(CliBinary, EnvironmentVariablesAreDefaultsThatOptionsOverride) {
  const std::string code = "print(arange(4).sum())\n:noopt\n:beam\n";
  const Result env = run_binary({"-e", code}, "", {"DEBUG=2", "NOOPT=1", "BEAM=0"});
  EXPECT_EQ(env.status, 0) << env.err;
  EXPECT_CONTAINS(env.out, "*** CPU");
  EXPECT_CONTAINS(env.out, "avg: ");
  EXPECT_CONTAINS(env.out, "noopt on");
  const Result flags = run_binary({"--debug", "0", "-e", code}, "", {"DEBUG=2"});
  EXPECT_LACKS(flags.out, "*** CPU");
  const Result beam = run_binary({"-e", ":beam"}, "", {"BEAM=3"});
  EXPECT_EQ(beam.out, "beam 3\n");
  const Result dev = run_binary({"-e", "print(1)"}, "", {"DEV=NOWHERE"});
  EXPECT_EQ(dev.status, 2);
  EXPECT_CONTAINS(dev.err, "error: unknown device 'NOWHERE'");
  EXPECT_EQ(run_binary({"--device", "cpu", "-e", "print(1)"}, "", {"DEV=NOWHERE"}).status, 0);
}

// The default opts follow the instruction set that TINYREPL_ISA names: a matmul's register tile is
// two vector registers of columns by as many rows as the registers hold.
TEST(CliBinary, TheInstructionSetCanBeNamed) {
  const std::string code = ":device\na = rand(64, 64)\nprint((a @ a).sum() > 0)\n:opts 1\n";
  const Result avx2 = run_binary({"-e", code}, "", {"TINYREPL_ISA=avx2"});
  EXPECT_EQ(avx2.status, 0) << avx2.err;
  EXPECT_CONTAINS(avx2.out, "* CPU      available\n  instruction set: AVX2 (8 float32 lanes)\n");
  EXPECT_CONTAINS(avx2.out, "(opts: UPCAST(1, 8), UPCAST(1, 2), UPCAST(0, 4)");
  const Result avx512 = run_binary({"-e", code}, "", {"TINYREPL_ISA=AVX-512"});
  EXPECT_CONTAINS(avx512.out, "  instruction set: AVX-512 (16 float32 lanes)\n");
  EXPECT_CONTAINS(avx512.out, "(opts: UPCAST(1, 16), UPCAST(1, 2), UPCAST(0, 8)");
  const Result bad = run_binary({"-e", ":device"}, "", {"TINYREPL_ISA=mmx"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_CONTAINS(bad.err, "error: device CPU is not available: TINYREPL_ISA='mmx' names no instruction set (none, sse, "
                           "avx2, avx512, neon)");
}

TEST(CliBinary, APipedSessionEchoesValuesAndOutlivesItsErrors) {
  const Result r = run_binary({}, "x = arange(3)\nx.sum().item()\ny = x.reshape(5)\nx + 1\nprint(x * 10)\n");
  EXPECT_EQ(r.status, 2);  // the first failure's, as `run -` exits
  EXPECT_EQ(r.out, "3\n<Tensor (3,) dtypes.int on CPU, lazy>\n[ 0 10 20]\n");
  EXPECT_EQ(r.err, "<stdin>:3:7: error: cannot reshape (3,) to (5,)\ny = x.reshape(5)\n      ^~~~~~~\n");
  // a piped session's error is the one `run -` gives for the same lines
  for (const std::string input : {"x = arange(3)\nx.sum()\ny = x.reshape(5)\n", "x = 1\n\nx +\n"}) {
    const Result session = run_binary({}, input), script = run_binary({"run", "-"}, input);
    EXPECT_EQ(session.err, script.err);
    EXPECT_EQ(session.status, script.status);
  }
}

// As Python's REPL reads: a line that cannot continue an open bracket ends the input, whose error is
// shown; a closing bracket of the wrong kind is an error at once; every later line runs.
TEST(CliBinary, APipedSessionRunsEveryLineAfterABadBracket) {
  const Result r =
      run_binary({"--plain"}, "x = foo(1, 2\ny = 3\nprint(5)\nprint((1]\nprint(6)\nz = [1,\n 2]\nprint(z)\n");
  EXPECT_EQ(r.out, "5\n6\n[1, 2]\n");
  EXPECT_EQ(r.err,
            "<stdin>:2:1: error: expected ')' to close '(' at 1:8\ny = 3\n^\n"
            "<stdin>:4:9: error: closing parenthesis ']' does not match opening parenthesis '('\nprint((1]\n"
            "        ^\n");
}

// The binary on a pseudo-terminal, typed at as a person types.
class Terminal {
 public:
  // `env`: variables set for the binary besides HOME and TERM.
  Terminal(const std::vector<std::string>& args, const std::string& home,
           const std::vector<std::pair<std::string, std::string>>& env = {}) {
    struct winsize size {};
    size.ws_row = 24;
    size.ws_col = 100;
    pid_ = forkpty(&fd_, nullptr, nullptr, &size);
    if (pid_ == 0) {
      std::vector<std::string> argv_s{TINYREPL_BINARY};
      argv_s.insert(argv_s.end(), args.begin(), args.end());
      std::vector<char*> argv;
      for (std::string& a : argv_s) argv.push_back(a.data());
      argv.push_back(nullptr);
      setenv("HOME", home.c_str(), 1);
      setenv("TERM", "xterm", 1);
      unsetenv("INPUTRC");
      for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
      execv(argv[0], argv.data());
      _exit(127);
    }
  }
  ~Terminal() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  // Ctrl-C as the terminal's driver sends it: SIGINT to the program.
  void interrupt() { kill(pid_, SIGINT); }
  // The program dies as a killed process does: nothing of it runs after this.
  void kill_now() {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    exited_ = true;
  }

  void type(const std::string& keys) { ASSERT_EQ(write(fd_, keys.data(), keys.size()), static_cast<ssize_t>(keys.size())); }

  // Reads until the screen has shown `text` since the last wait; fails, with what the screen showed,
  // after 20 seconds.
  ::testing::AssertionResult wait_for(const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (seen_.find(text, from_) == std::string::npos) {
      if (std::chrono::steady_clock::now() > deadline || !read_some())
        return ::testing::AssertionFailure() << "no '" << text << "' on the screen:\n" << seen_;
    }
    from_ = seen_.find(text, from_) + text.size();
    return ::testing::AssertionSuccess();
  }

  // Types keys, then waits for what they should bring to the screen.
  ::testing::AssertionResult answers(const std::string& keys, const std::string& text) {
    type(keys);
    return wait_for(text);
  }

  // The exit status once the program ends, -1 if it does not within 20 seconds.
  int wait_exit() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      read_some();
    }
    return -1;
  }

  const std::string& seen() const { return seen_; }

  // After a Ctrl-C: KeyboardInterrupt, then the prompt, within a second.
  ::testing::AssertionResult prompt_within_a_second() {
    const auto sent = std::chrono::steady_clock::now();
    if (auto r = wait_for("KeyboardInterrupt"); !r) return r;
    if (auto r = wait_for(">>> "); !r) return r;
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
    if (waited < 1.0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "the prompt came back " << waited << " s after Ctrl-C";
  }

 private:
  bool read_some() {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) return true;
    char buf[4096];
    const ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) return false;
    seen_.append(buf, static_cast<size_t>(n));
    return true;
  }

  pid_t pid_ = -1;
  int fd_ = -1;
  bool exited_ = false;
  std::string seen_;
  size_t from_ = 0;
};

TEST(CliPlainRepl, OnATerminalItPromptsContinuesInterruptsAndPauses) {
  const TempDir home;
  Terminal t({"--plain"}, home.path().string());
  ASSERT_TRUE(t.wait_for(">>> "));
  ASSERT_TRUE(t.answers("abcdef = arange(6)\r", ">>> "));
  // an open bracket asks for more with the continuation prompt
  ASSERT_TRUE(t.answers("print(abcdef.sum(\r", "... "));
  ASSERT_TRUE(t.answers("))\r", "15\r\n"));
  ASSERT_TRUE(t.answers("nope\r", "error: name 'nope' is not defined"));
  // Ctrl-C drops the line being typed, a continued input included, and the session goes on
  ASSERT_TRUE(t.answers("print(abcdef.max(\r", "... "));
  ASSERT_TRUE(t.answers("1 +\x03", "^C"));
  ASSERT_TRUE(t.wait_for(">>> "));  // a fresh prompt, not "... "
  ASSERT_TRUE(t.answers("print(abcdef.min() + 40 + 2)\r", "42\r\n"));
  // :step waits for Enter between its stages; q alone, no Enter, stops the walk
  ASSERT_TRUE(t.answers(":step abcdef.sum()\r", "── 1/7 the lazy graph ──"));
  ASSERT_TRUE(t.wait_for("[Enter: the schedule · q: stop] "));
  ASSERT_TRUE(t.answers("\r", "── 2/7 the schedule ──"));
  ASSERT_TRUE(t.wait_for("[Enter: kernel 0: its AST · q: stop] "));
  ASSERT_TRUE(t.answers("q", ">>> "));
  EXPECT_EQ(t.seen().find("── 3/7"), std::string::npos) << t.seen();
  // a statement typed at a pause stops the walk and runs, as if typed at the prompt
  ASSERT_TRUE(t.answers(":step abcdef.sum()\r", "[Enter: the schedule · q: stop] "));
  ASSERT_TRUE(t.answers("print(abcdef.max() + 100)\r", "105\r\n"));
  EXPECT_EQ(t.seen().find("── 2/7", t.seen().rfind("── 1/7")), std::string::npos) << t.seen();
  t.type(":quit\r");
  EXPECT_EQ(t.wait_exit(), 0) << t.seen();
}

// A 4096x4096 matmul runs for many seconds on a CPU: Ctrl-C stops it inside the kernel, the prompt
// comes back at once, and the names made before are all there.
TEST(CliPlainRepl, CtrlCStopsAComputationAndKeepsEveryName) {
  const TempDir home;
  Terminal t({"--plain"}, home.path().string());
  ASSERT_TRUE(t.wait_for(">>> "));
  ASSERT_TRUE(t.answers("x = arange(3) + 1; print(x)\r", "[1 2 3]"));
  // operands quick to make in every build (rand draws on the host: seconds under the sanitizers)
  t.type("a = ones(4096,4096).contiguous(); r = a @ a; print(r[0,0])\r");
  // the progress bar: work that lasts shows what it is at
  ASSERT_TRUE(t.wait_for("running kernel"));
  t.interrupt();
  ASSERT_TRUE(t.prompt_within_a_second());
  ASSERT_TRUE(t.answers("print(x)\r", "[1 2 3]"));
  // at the prompt, Ctrl-C drops the line, as a shell does; the keys are typed once the prompt is back,
  // so that readline echoes them (typed earlier, the terminal echoes them and readline reads them after
  // the Ctrl-C: the line would survive it)
  ASSERT_TRUE(t.wait_for(">>> "));
  ASSERT_TRUE(t.answers("print(99", "print(99"));
  t.interrupt();
  ASSERT_TRUE(t.wait_for("^C"));
  ASSERT_TRUE(t.answers("print(x.sum())\r", "6\r\n"));
  t.type(":quit\r");
  EXPECT_EQ(t.wait_exit(), 0) << t.seen();
}

// A loop over a huge range starts at once (range makes no list of its ints), and Ctrl-C stops it, or a
// comprehension or a max() over one, between two of its items; the names made before stay.
TEST(CliPlainRepl, CtrlCStopsALoopOverALongRange) {
  const TempDir home;
  Terminal t({"--plain"}, home.path().string());
  ASSERT_TRUE(t.wait_for(">>> "));
  ASSERT_TRUE(t.answers("n = 0\r", ">>> "));
  ASSERT_TRUE(t.answers("for i in range(10**15):\r", "... "));
  ASSERT_TRUE(t.answers("  n += 1\r", "... "));
  ASSERT_TRUE(t.answers("  if i == 1000: print('started')\r", "... "));
  ASSERT_TRUE(t.answers("\r", "started\r\n"));
  t.interrupt();
  ASSERT_TRUE(t.prompt_within_a_second());
  ASSERT_TRUE(t.answers("print(n > 1000)\r", "True\r\n"));
  for (const std::string statement : {"xs = [i for i in range(10**15) if i < 0]", "m = max(range(10**15))"}) {
    ASSERT_TRUE(t.answers("print('go'); " + statement + "\r", "go\r\n"));
    t.interrupt();
    ASSERT_TRUE(t.prompt_within_a_second()) << statement;
  }
  ASSERT_TRUE(t.answers("print(n > 1000)\r", "True\r\n"));
  t.type(":quit\r");
  EXPECT_EQ(t.wait_exit(), 0) << t.seen();
}

// A full sum split over the cores, whose cores wait for each other at a barrier before combining
// their parts: Ctrl-C stops every core, waiting or not, and the next full sum runs (no core is left
// at the barrier).
TEST(CliPlainRepl, CtrlCStopsTheCoresOfASplitReduce) {
  const TempDir home;
  Terminal t({"--plain"}, home.path().string());
  ASSERT_TRUE(t.wait_for(">>> "));
  // 400 sines of 2^24 elements fused into the sum: seconds of work in one kernel
  ASSERT_TRUE(t.answers("y = ones(4096, 4096).contiguous()\r", ">>> "));
  std::string sines;
  for (int i = 0; i < 50; i++) sines += ".sin()";
  for (int i = 0; i < 8; i++) ASSERT_TRUE(t.answers("y = y" + sines + "\r", ">>> "));
  t.type("print(y.sum())\r");
  ASSERT_TRUE(t.wait_for("running kernel"));
  t.interrupt();
  ASSERT_TRUE(t.prompt_within_a_second());
  ASSERT_TRUE(t.answers("print(ones(4096, 4096).sum())\r", "1.6777216e+07"));
  t.type(":quit\r");
  EXPECT_EQ(t.wait_exit(), 0) << t.seen();
}

// A matmul on the OPENCL device (PoCL on a machine without a GPU) runs for seconds: Ctrl-C returns the
// prompt while the kernel still runs, since the wait asks the driver about the kernel's event and looks
// at the interrupt flag between two questions. (CUDA's wait has the same shape with cuEventQuery.)
TEST(CliPlainRepl, CtrlCReturnsThePromptWhileAGpuKernelRuns) {
  if (const std::string why = device_status("OPENCL"); !why.empty()) GTEST_SKIP() << "OPENCL cannot open: " << why;
  const TempDir home;
  Terminal t({"--plain"}, home.path().string());
  ASSERT_TRUE(t.wait_for(">>> "));
  ASSERT_TRUE(t.answers("x = arange(3) + 1; print(x)\r", "[1 2 3]"));
  ASSERT_TRUE(t.answers("a = rand(4096,4096).to(\"OPENCL\").realize()\r", ">>> "));
  t.type("r = a @ a; print(r[0,0])\r");  // its one kernel runs on OPENCL
  ASSERT_TRUE(t.wait_for("running kernel"));
  t.interrupt();
  ASSERT_TRUE(t.prompt_within_a_second());
  ASSERT_TRUE(t.answers("print(x)\r", "[1 2 3]"));
  // the kernel runs on to its end, and closing the device would wait for it
  t.kill_now();
}

// A BEAM search shows which candidate it times, and Ctrl-C stops it between two. Its caches start
// empty: a choice kept by an earlier run (of this test or another in the tests' shared cache) would
// leave nothing to search, and compiled candidates would make the search shorter than the bar's wait.
TEST(CliPlainRepl, ABeamSearchShowsItsProgressAndStopsOnCtrlC) {
  const TempDir home;
  Terminal t({"--plain", "--beam", "4"}, home.path().string(), {{"XDG_CACHE_HOME", (home.path() / "cache").string()}});
  ASSERT_TRUE(t.wait_for(">>> "));
  t.type("a = rand(512,512); print((a @ a).sum())\r");
  ASSERT_TRUE(t.wait_for("BEAM candidate "));
  t.interrupt();
  ASSERT_TRUE(t.wait_for("KeyboardInterrupt"));
  ASSERT_TRUE(t.answers(":beam 0\r", ">>> "));
  ASSERT_TRUE(t.answers("print(a.shape)\r", "(512, 512)"));
  t.type(":quit\r");
  EXPECT_EQ(t.wait_exit(), 0) << t.seen();
}

// On a terminal DEBUG=2 colours a kernel's name as tinygrad does: each dim's size in its role's colour
// (global blue, reduce red), the underscores dark grey; the golden test checks the plain form into a pipe.
TEST(CliPlainRepl, Debug2ColoursEachDimOfAKernelName) {
  const TempDir home;
  Terminal t({"--debug", "2", "--noopt", "-e", "print(ones(4, 8).contiguous().sum(axis=1))"}, home.path().string());
  EXPECT_EQ(t.wait_exit(), 0) << t.seen();
  const std::string grey = "\x1b[90m_\x1b[0m";
  EXPECT_NE(t.seen().find("r" + grey + "\x1b[34m4\x1b[0m" + grey + "\x1b[31m8\x1b[0m"), std::string::npos) << t.seen();
  // the padding counts the name's letters, not its colour codes: without them the column is 41 wide
  const size_t name = t.seen().find("r" + grey), arg = t.seen().find(" arg ", name);
  ASSERT_NE(arg, std::string::npos) << t.seen();
  const std::string column = std::regex_replace(t.seen().substr(name, arg - name), std::regex("\x1b\\[[0-9]+m"), "");
  EXPECT_EQ(column, "r_4_8" + std::string(36, ' ')) << t.seen();
}

// A script that Ctrl-C stops ends with exit status 130, after the summary it would have printed.
TEST(CliPlainRepl, CtrlCEndsAScriptWithStatus130AfterItsSummary) {
  const TempDir home;
  const std::string script = home.write("long.tg", "print(arange(4).sum())\na = ones(4096,4096).contiguous()\nr = a @ a\n"
                                                   "print(r[0,0])\nprint(12345)\n");
  Terminal t({"--debug", "2", script}, home.path().string());
  ASSERT_TRUE(t.wait_for("running kernel"));
  t.interrupt();
  EXPECT_EQ(t.wait_exit(), 130) << t.seen();
  EXPECT_NE(t.seen().find("KeyboardInterrupt"), std::string::npos) << t.seen();
  EXPECT_NE(t.seen().find("avg: "), std::string::npos) << t.seen();
  EXPECT_EQ(t.seen().find("12345"), std::string::npos) << t.seen();
}

TEST(CliPlainRepl, ReadlineCompletesAndKeepsTheHistory) {
#ifndef TINYREPL_HAVE_READLINE
  GTEST_SKIP() << "this build has no GNU readline";
#else
  const TempDir home;
  {
    Terminal t({"--plain"}, home.path().string());
    ASSERT_TRUE(t.wait_for(">>> "));
    ASSERT_TRUE(t.answers("abcdef = arange(6)\r", ">>> "));
    // Tab completes the variable, then the method after the dot, then a meta command
    ASSERT_TRUE(t.answers("abcd\t.resh\t(3, 2)\r", "<Tensor (3, 2) dtypes.int on CPU, lazy>"));
    ASSERT_TRUE(t.answers(":ker\tabcdef\r", "kernel  E_6"));
    t.type(":quit\r");
    EXPECT_EQ(t.wait_exit(), 0) << t.seen();
  }
  const std::string history = read_file(home.file(".tinyrepl_history"));
  EXPECT_CONTAINS(history, "abcdef = arange(6)\n");
  EXPECT_CONTAINS(history, "abcdef.reshape(3, 2)\n");
  EXPECT_CONTAINS(history, ":quit\n");
  {
    // the next session starts with that history: Up brings back ":quit"
    Terminal t({"--plain"}, home.path().string());
    ASSERT_TRUE(t.wait_for(">>> "));
    t.type("\x1b[A\r");
    EXPECT_EQ(t.wait_exit(), 0) << t.seen();
  }
  {
    // Ctrl-D leaves too, and saves what was typed
    Terminal t({"--plain"}, home.path().string());
    ASSERT_TRUE(t.wait_for(">>> "));
    ASSERT_TRUE(t.answers("zz = 5\r", ">>> "));
    t.type("\x04");
    EXPECT_EQ(t.wait_exit(), 0) << t.seen();
  }
  EXPECT_CONTAINS(read_file(home.file(".tinyrepl_history")), "zz = 5\n");
  {
    // each statement is appended as it runs, all its lines one entry: a session that is killed keeps it
    Terminal t({"--plain"}, home.path().string());
    ASSERT_TRUE(t.wait_for(">>> "));
    ASSERT_TRUE(t.answers("both = (1 +\r", "... "));
    ASSERT_TRUE(t.answers("2)\r", ">>> "));
    t.kill_now();
  }
  EXPECT_CONTAINS(read_file(home.file(".tinyrepl_history")), "both = (1 +\n2)\n");
  {
    // the next session gets the two lines back as one entry: Up, then Enter, runs both
    Terminal t({"--plain"}, home.path().string());
    ASSERT_TRUE(t.wait_for(">>> "));
    ASSERT_TRUE(t.answers("\x1b[A\r", ">>> "));
    ASSERT_TRUE(t.answers("print(both)\r", "3\r\n"));
    t.type(":quit\r");
    EXPECT_EQ(t.wait_exit(), 0) << t.seen();
  }
#endif
}

}  // namespace
}  // namespace tr::repl
