// The program in-process: scripts and -e with their exit statuses and located errors, the piped
// session, DEBUG levels, and every --json event kind.
#include <gtest/gtest.h>

#include "core/realize/realize.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"
#include "tests/cli_testing.h"
#include "viz/stages.h"

namespace tr::repl {
namespace {

using testing::json_lines;
using testing::Result;
using testing::run_here;
using testing::TempDir;

TEST(CliScripts, ExitStatusIsZeroOneOrTwo) {
  EXPECT_EQ(run_here({"-e", "x = tensor([1,2]); assert (x * tensor([3,4])).sum() == 11"}).status, 0);
  EXPECT_EQ(run_here({"-e", "assert tensor([1,2]).sum() == 4"}).status, 1);
  EXPECT_EQ(run_here({"-e", "x = tensor([1,2]) + tensor([1,2,3])"}).status, 2);  // shape
  EXPECT_EQ(run_here({"-e", "x = (1"}).status, 2);                               // syntax
  EXPECT_EQ(run_here({"-e", "y = nope + 1"}).status, 2);                         // name
  EXPECT_EQ(run_here({"-e", ":ast 7"}).status, 2);                               // a command
  EXPECT_EQ(run_here({"--device", "NOPE", "-e", "1"}).status, 2);                // the device
  EXPECT_EQ(run_here({"--debug", "9", "-e", "1"}).status, 2);
  EXPECT_EQ(run_here({"--render", "fortran", "-e", "1"}).status, 2);
  EXPECT_EQ(run_here({"--frobnicate"}).status, 2);
  EXPECT_EQ(run_here({"/nonexistent/x.tg"}).status, 2);
  EXPECT_EQ(run_here({"-e", "print(1)\n:quit\nassert False"}).status, 0);
}

TEST(CliScripts, ErrorsNameFileLineAndColumnWithACaret) {
  const TempDir dir;
  const std::string path = dir.write("bad.tg", "a = tensor([1, 2, 3])\n# a comment\nb = a.reshape(2, 2)\nprint(b)\n");
  const Result r = run_here({path});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, path + ":3:7: error: cannot reshape (3,) to (2, 2)\nb = a.reshape(2, 2)\n      ^~~~~~~\n");
}

TEST(CliScripts, AFailedAssertShowsBothSidesAndStopsTheScript) {
  const Result r = run_here({"-e", "x = arange(4)\nprint(x.sum())\nassert x.sum() == 7, \"sum\"\nprint(99)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "6\n");
  EXPECT_EQ(r.err, "-e:3:16: error: assertion failed: sum (6 == 7)\nassert x.sum() == 7, \"sum\"\n               ^~\n");
}

TEST(CliScripts, ASyntaxErrorAnywhereRunsNothing) {
  const Result r = run_here({"-e", "print(1)\nprint(2))"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_CONTAINS(r.err, "-e:2:9: error: ");
}

TEST(CliScripts, ExpressionStatementsShowNothingInAScript) {
  const Result r = run_here({"-e", "1 + 1; print(3); arange(2)"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "3\n");
}

// Every line runs, as in a person's session; errors name their line of standard input, and the
// session exits with the status of its first failure, as `run -` does.
TEST(CliPipedSession, AnErrorInTheMiddleKeepsTheNamesAndSetsTheExitStatus) {
  const Result r = run_here({}, "x = tensor([1., 2., 3.])\ny = x * 2\nz = y + tensor([1, 2])\nprint(y)\nnope\n"
                                "y.sum().item()\n\"text\"\nNone\n");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "[2. 4. 6.]\n12.0\n'text'\n");
  EXPECT_EQ(r.err,
            "<stdin>:3:7: error: cannot broadcast (3,) with (2,)\nz = y + tensor([1, 2])\n      ^\n"
            "<stdin>:5:1: error: name 'nope' is not defined\nnope\n^~~~\n");
}

TEST(CliPipedSession, ContinuationLinesWhileABracketIsOpen) {
  const Result r = run_here({}, "m = tensor([[1, 2],\n           [3, 4]])\nprint(m.sum(\naxis=0))\nm.shape\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, "[4 6]\n(2, 2)\n");
  EXPECT_EQ(r.err, "");
}

TEST(CliPipedSession, ABlockGoesOnUntilABlankLineAndUnderscoreIsTheLastValue) {
  const Result r = run_here({}, "def f(a, b=2):\n    return a * b\n\nf(3)\n_ + 1\nfor i in range(2):\n  i\n\n"
                                "def g(x):\n  return x + tensor([1, 2])\n\ng(ones(3))\n");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "6\n7\n0\n1\n");
  EXPECT_EQ(r.err,
            "<stdin>:10:12: error: cannot broadcast (3,) with (2,)\n  return x + tensor([1, 2])\n           ^\n"
            "  called from <stdin>:12:1\n");
}

TEST(CliScript, AnErrorInsideAFunctionNamesTheFileLineAndCalls) {
  const Result r = run_here({"-e", "def f(x):\n  return x.sum(axis=5)\nf(ones(2))"}, "");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "-e:2:12: error: axis 5 is out of range for a tensor of 1 dims\n  return x.sum(axis=5)\n           ^~~\n"
            "  called from -e:3:1\n");
}

TEST(CliPipedSession, AnOpenBracketAtTheEndIsAnError) {
  const Result r = run_here({}, "print(1)\nx = tensor([1,\n");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "1\n");
  EXPECT_CONTAINS(r.err, "<stdin>:3:1: error: ");
}

TEST(CliPipedSession, QuitEndsItWithTheStatusOfTheFirstFailure) {
  const Result r = run_here({}, "assert 1 == 2\nprint(5)\nnope\n:quit\nprint(6)\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "5\n");
  EXPECT_EQ(r.err,
            "<stdin>:1:10: error: assertion failed: 1 == 2\nassert 1 == 2\n         ^~\n"
            "<stdin>:3:1: error: name 'nope' is not defined\nnope\n^~~~\n");
  EXPECT_EQ(run_here({}, "print(5)\n:quit\nnope\n").status, 0);
}

TEST(CliDebug, LevelOneNamesTheScheduleAndEachKernel) {
  const Result r = run_here({"--debug", "1", "-e", "x = arange(8).float(); print((x * x).sum())"});
  EXPECT_EQ(r.status, 0);
  EXPECT_CONTAINS(r.out, "scheduled 1 kernels in ");
  EXPECT_CONTAINS(r.out, "\nr_8");
  EXPECT_LACKS(r.out, "***");
  EXPECT_LACKS(r.out, "avg:");
}

TEST(CliDebug, LevelTwoHasTinygradsLinesAndTheAvgSummaryAtTheEnd) {
  const Result r = run_here({"--debug", "2", "-e", "x = tensor([1, 2]); print((x * tensor([3, 4])).sum())"});
  EXPECT_EQ(r.status, 0);
  // kernel names are the process's: another test may have made an r_2 before (then r_2n1, ...)
  // copies and kernels are numbered in one sequence, the read-back of the value included
  EXPECT_CONTAINS(r.out, "opened device CPU from pid:");
  EXPECT_CONTAINS(r.out, "*** CPU        1 copy        8,     CPU <- HOST            arg  2 mem ");
  EXPECT_CONTAINS(r.out, "*** CPU        2 copy        8,     CPU <- HOST ");
  EXPECT_CONTAINS(r.out, "*** CPU        3 r_2");
  EXPECT_CONTAINS(r.out, " arg  3 mem ");
  EXPECT_CONTAINS(r.out, " GFLOPS ");
  EXPECT_CONTAINS(r.out, "*** HOST       4 copy        4,    HOST <- CPU     ");
  EXPECT_CONTAINS(r.out, "total:     4 kernels ");
  EXPECT_LACKS(r.out, "\x1b[") << "no colours into a pipe";
  const size_t avg = r.out.rfind("avg: ");
  ASSERT_NE(avg, std::string::npos) << r.out;
  EXPECT_CONTAINS(r.out.substr(avg), " kernels ");
  EXPECT_EQ(r.out.find('\n', avg), r.out.size() - 1) << "avg: is the last line";
}

TEST(CliDebug, HigherLevelsAddTheAstTheSourceAndTheUOps) {
  const std::string code = "print(arange(4).sum())";
  const Result three = run_here({"--debug", "3", "-e", code});
  EXPECT_CONTAINS(three.out, "━┳ STORE MemBuffer(idx=0, dtype=int");
  EXPECT_LACKS(three.out, "void r_4");
  const Result four = run_here({"--debug", "4", "-e", code});
  EXPECT_CONTAINS(four.out, "void r_4");
  EXPECT_LACKS(four.out, "DEFINE_GLOBAL");
  const Result rendered = run_here({"--debug", "4", "--render", "opencl,cuda", "-e", code});
  // a GPU language's tab shows the kernel lowered for a GPU, and says so
  EXPECT_CONTAINS(rendered.out, "// opencl\n// lowered for ");
  EXPECT_CONTAINS(rendered.out, "__kernel void r_4");
  EXPECT_CONTAINS(rendered.out, "// cuda\n// lowered for ");
  const Result five = run_here({"--debug", "5", "-e", code});
  EXPECT_CONTAINS(five.out, "DEFINE_GLOBAL  : ptr.int");
  EXPECT_LACKS(five.out, "── after pass 1 of ");
}

TEST(CliDebug, LevelThreeShowsTheViewsAndTheDimsBeforeTheKernelsLine) {
  const Result r = run_here({"--debug", "3", "-e", "x = tensor([[1, 2, 3, 4], [5, 6, 7, 8]]); print(x.T.sum(axis=1))"});
  EXPECT_EQ(r.status, 0);
  const size_t tree = r.out.find("━┳ STORE MemBuffer(");
  const size_t views = r.out.find("ShapeTracker views:\n  STORE idx=0  view 0: ");
  const size_t dims = r.out.find("dims (AXIS for :opt):\n"), line = r.out.find(" r_4_2");
  ASSERT_NE(line, std::string::npos) << r.out;
  EXPECT_LT(tree, views) << r.out;
  EXPECT_LT(views, dims) << r.out;
  EXPECT_LT(dims, line) << "a kernel's stages come before its *** line\n" << r.out;
  EXPECT_CONTAINS(r.out, "  LOAD idx=1   view 0: ");
}

TEST(CliDebug, LevelSixShowsTheUOpsAfterEachPassEndingWithTheFinalListing) {
  const std::string code = "print(arange(4).sum())";
  const Result six = run_here({"--debug", "6", "-e", code});
  EXPECT_EQ(six.status, 0);
  // the passes of this kernel's lowering, whatever they are, each named in order
  const Tensor sum = Tensor::arange(int64_t{0}, int64_t{4}).sum();
  const std::vector<ScheduleItem> items = create_schedule({base_of(sum.node())});
  ASSERT_EQ(items.size(), 1u);
  const KernelRecord lowered = lower(items[0], "CPU");
  const std::vector<PassSnapshot> passes_run = lowering_passes(lowered);
  ASSERT_FALSE(passes_run.empty());
  size_t at = 0;
  for (size_t i = 0; i < passes_run.size(); i++) {
    const size_t next = six.out.find(pass_heading(passes_run, i), at);
    ASSERT_NE(next, std::string::npos) << pass_heading(passes_run, i) << " in\n" << six.out;
    at = next;
  }
  // the last pass leaves the final listing, which DEBUG 5 prints next; then the source and the *** line
  const size_t from = six.out.find('\n', at) + 1, launch = six.out.find("launch: ", at);
  ASSERT_NE(launch, std::string::npos) << six.out;
  EXPECT_EQ(six.out.substr(from, launch - from), print_uops(lowered.program->uops) + print_uops(lowered.program->uops));
  EXPECT_LT(launch, six.out.find("void r_4"));
  EXPECT_LT(six.out.find("void r_4"), six.out.find("*** CPU"));
}

// Every event of a --json run: the objects, one per line, of the kinds SPEC section 5 lists.
class CliJson : public ::testing::Test {
 protected:
  std::vector<nlohmann::json> events_of(const std::vector<std::string>& args) {
    const Result r = run_here(args);
    status = r.status;
    return json_lines(r.out);
  }
  static std::vector<nlohmann::json> only(const std::vector<nlohmann::json>& events, const std::string& kind) {
    std::vector<nlohmann::json> out;
    for (const auto& e : events)
      if (e.at("event") == kind) out.push_back(e);
    return out;
  }
  int status = -1;
};

TEST_F(CliJson, PrintScheduleKernelCopyAssertAndSummary) {
  const TempDir dir;
  const std::string path =
      dir.write("dot.tg", "x = tensor([1, 2])\ny = (x * tensor([3, 4])).sum()\nprint(y)\nassert y == 11\n"
                          "print(x.float() / 2, 3, \"s\")\nprint(dtypes.half)\n");
  const auto events = events_of({"run", "--json", path});
  EXPECT_EQ(status, 0);
  for (const auto& e : events) {
    EXPECT_TRUE(e.contains("event"));
    if (e["event"] != "summary") {
      EXPECT_EQ(e.value("file", ""), path) << e;
      EXPECT_GT(e.value("line", 0), 0) << e;
    }
  }
  const auto prints = only(events, "print");
  ASSERT_EQ(prints.size(), 3u);
  EXPECT_EQ(prints[0]["line"], 3);
  EXPECT_EQ(prints[0]["shape"], nlohmann::json::array());
  EXPECT_EQ(prints[0]["dtype"], "int32");
  EXPECT_EQ(prints[0]["data"], nlohmann::json::array({11}));
  EXPECT_EQ(prints[0]["text"], "11");
  EXPECT_EQ(prints[1]["text"], "[0.5 1. ] 3 s");
  ASSERT_EQ(prints[1]["values"].size(), 3u);
  EXPECT_EQ(prints[1]["values"][0]["data"], nlohmann::json::array({0.5, 1.0}));
  EXPECT_EQ(prints[1]["values"][0]["shape"], nlohmann::json::array({2}));
  EXPECT_EQ(prints[1]["values"][1]["shape"], nullptr);
  EXPECT_EQ(prints[1]["values"][1]["value"], 3);
  EXPECT_EQ(prints[1]["values"][2]["value"], "s");
  EXPECT_EQ(prints[2]["shape"], nullptr);
  EXPECT_EQ(prints[2]["value"], "float16");

  const auto schedules = only(events, "schedule");
  ASSERT_FALSE(schedules.empty());
  EXPECT_EQ(schedules[0]["line"], 3);
  EXPECT_EQ(schedules[0]["kernels"], 1);
  EXPECT_EQ(schedules[0]["copies"], 2);
  EXPECT_GE(schedules[0]["ms"].get<double>(), 0.0);

  const auto kernels = only(events, "kernel");
  ASSERT_FALSE(kernels.empty());
  const auto& k = kernels[0];
  EXPECT_TRUE(k["name"].get<std::string>().starts_with("r_2")) << k;
  EXPECT_EQ(k["device"], "CPU");
  EXPECT_EQ(k["global"].size(), 3u);
  EXPECT_EQ(k["local"].size(), 3u);
  EXPECT_EQ(k["flops"], 4);
  EXPECT_EQ(k["bytes"], 20);
  for (const char* f : {"us", "gflops", "gbs"}) EXPECT_TRUE(k[f].is_number()) << f;
  EXPECT_TRUE(k["cached"].is_boolean());

  // the two inputs in, then each value read back to the host: print(y), the assert, print(x.float() / 2)
  const auto copies = only(events, "copy");
  ASSERT_EQ(copies.size(), 5u);
  EXPECT_EQ(copies[0]["bytes"], 8);
  EXPECT_EQ(copies[0]["from"], "HOST");
  EXPECT_EQ(copies[0]["to"], "CPU");
  EXPECT_TRUE(copies[0]["us"].is_number());
  EXPECT_EQ(copies[2]["bytes"], 4);
  EXPECT_EQ(copies[2]["from"], "CPU");
  EXPECT_EQ(copies[2]["to"], "HOST");
  EXPECT_EQ(copies[2]["line"], 3);

  const auto asserts = only(events, "assert");
  ASSERT_EQ(asserts.size(), 1u);
  EXPECT_EQ(asserts[0]["line"], 4);
  EXPECT_EQ(asserts[0]["ok"], true);

  EXPECT_TRUE(only(events, "error").empty());
  EXPECT_TRUE(only(events, "source").empty());  // only with --debug 4
  ASSERT_EQ(events.back()["event"], "summary");
  EXPECT_EQ(events.back()["kernels"], static_cast<int>(kernels.size()));
  for (const char* f : {"gflops", "gbs", "ms"}) EXPECT_TRUE(events.back()[f].is_number()) << f;
}

TEST_F(CliJson, AnErrorHasItsKindLineAndColumn) {
  const auto events = events_of({"--json", "-e", "a = ones(2, 3)\nb = a + ones(4)\nprint(b)"});
  EXPECT_EQ(status, 2);
  const auto errors = only(events, "error");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0]["file"], "-e");
  EXPECT_EQ(errors[0]["line"], 2);
  EXPECT_EQ(errors[0]["col"], 7);
  EXPECT_EQ(errors[0]["kind"], "shape");
  EXPECT_EQ(errors[0]["message"], "cannot broadcast (2, 3) with (4,)");
  EXPECT_TRUE(only(events, "print").empty());
  EXPECT_EQ(events.back()["event"], "summary");
}

TEST_F(CliJson, AFailedAssertIsAnAssertEventWithItsMessage) {
  const auto events = events_of({"--json", "-e", "x = arange(3)\nassert kernels(x) == 2"});
  EXPECT_EQ(status, 1);
  const auto asserts = only(events, "assert");
  ASSERT_EQ(asserts.size(), 1u);
  EXPECT_EQ(asserts[0]["ok"], false);
  EXPECT_EQ(asserts[0]["line"], 2);
  EXPECT_EQ(asserts[0]["col"], 19);
  EXPECT_EQ(asserts[0]["message"], "assertion failed: 1 == 2");
}

TEST_F(CliJson, SourceForEachRenderBackendFromDebugFour) {
  const auto events = events_of({"--json", "--debug", "4", "--render", "c,opencl,metal", "-e", "print(arange(4).sum())"});
  EXPECT_EQ(status, 0);
  const auto sources = only(events, "source");
  std::vector<std::string> backends;
  for (const auto& s : sources) {
    if (!s["kernel"].get<std::string>().starts_with("r_4")) continue;
    backends.push_back(s["backend"]);
    EXPECT_CONTAINS(s["text"].get<std::string>(), " r_4");
    EXPECT_EQ(s["line"], 1);
  }
  EXPECT_EQ(backends, (std::vector<std::string>{"c", "opencl", "metal"}));
  // the device's own source when no --render list is given
  const auto own = only(events_of({"--json", "--debug", "4", "-e", "print(arange(4).sum())"}), "source");
  ASSERT_FALSE(own.empty());
  EXPECT_EQ(own[0]["backend"], "c");
}

TEST_F(CliJson, WhatACommandShowsIsAnOutputEventAndStdoutStaysJson) {
  const auto events = events_of({"--json", "-e", "print(arange(3).sum())\n:kernels\n:vars"});
  EXPECT_EQ(status, 0);
  const auto outputs = only(events, "output");
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0]["command"], "kernels");
  EXPECT_EQ(outputs[0]["line"], 2);
  EXPECT_CONTAINS(outputs[0]["text"].get<std::string>(), "kernel  r_3");
  EXPECT_EQ(outputs[1]["command"], "vars");
}

TEST_F(CliJson, AStartUpErrorIsAnEventToo) {
  const auto events = events_of({"--json", "--device", "NOPE", "-e", "print(1)"});
  EXPECT_EQ(status, 2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0]["event"], "error");
  EXPECT_EQ(events[0]["kind"], "device");
  EXPECT_FALSE(events[0].contains("line"));
  EXPECT_EQ(events[1]["event"], "summary");
}

// Found by the session fuzzer: a byte that is not UTF-8 in a line whose error --json reports ended the
// program (nlohmann::json refuses to write it); it becomes U+FFFD and the run ends as any error does.
// Each realize's schedule is one event, however many host copies follow it: a slice printed after a
// realize, and .item(), once gave two schedule events (and :kernels two kernels) for the one that ran.
TEST_F(CliJson, EachRealizeIsOneScheduleEvent) {
  const TempDir dir;
  const std::string path = dir.write("slices.tg", "x = (arange(8) * 2).realize()\nprint(x[:3])\nprint(x[1].item())\n");
  const auto events = events_of({"run", "--json", path});
  EXPECT_EQ(status, 0);
  const auto schedules = only(events, "schedule");
  ASSERT_EQ(schedules.size(), 3u);
  for (size_t i = 0; i < schedules.size(); i++) {
    EXPECT_EQ(schedules[i]["line"], i + 1);
    EXPECT_EQ(schedules[i]["kernels"], 1);
  }
  EXPECT_EQ(only(events, "kernel").size(), 3u);
}

TEST(CliJsonEvents, BytesThatAreNotUtf8AreReplaced) {
  const Result r = run_here({"--json", "-e", ":\xf4x\nprint(1)"});
  EXPECT_EQ(r.status, 2) << r.err;
  const std::vector<nlohmann::json> events = json_lines(r.out);
  ASSERT_FALSE(events.empty()) << r.out;
  EXPECT_EQ(events[0]["event"], "error");
  EXPECT_CONTAINS(r.out, "\xef\xbf\xbd");  // U+FFFD in UTF-8
}

}  // namespace
}  // namespace tr::repl
