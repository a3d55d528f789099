// The meta commands of SPEC section 3 in a piped session: what each shows, what each changes, and
// the error each gives for a bad argument (pointing at it) while the session carries on.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/base/context.h"
#include "core/realize/realize.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"
#include "tests/cli_testing.h"
#include "viz/stages.h"

namespace tr::repl {
namespace {

using testing::read_file;
using testing::Result;
using testing::run_here;
using testing::TempDir;

// A piped session of these lines; errors must be exactly `errors` lines saying "error: ", and the
// session exits with status 2 when there are any, as `run -` does.
Result session(const std::string& input, int errors = 0) {
  Result r = run_here({}, input);
  EXPECT_EQ(r.status, errors ? 2 : 0);
  int n = 0;
  for (size_t at = r.err.find("error: "); at != std::string::npos; at = r.err.find("error: ", at + 1)) n++;
  EXPECT_EQ(n, errors) << r.err;
  return r;
}

constexpr const char* kMatmul = "a = arange(16).reshape(4, 4).float()\nb = (a @ a).sum(axis=1)\n";

TEST(CliMeta, VarsListsShapeDtypeDeviceAndRealized) {
  const Result r = session("x = arange(6).reshape(2, 3)\ny = ones(2).contiguous().realize()\nn = 3\ns = 'hi'\n:vars\n");
  EXPECT_CONTAINS(r.out, "name         type    shape          dtype    device  realized\n");
  EXPECT_CONTAINS(r.out, "x            Tensor  (2, 3)         int32    CPU     lazy\n");
  EXPECT_CONTAINS(r.out, "y            Tensor  (2,)           float32  CPU     realized\n");
  EXPECT_CONTAINS(r.out, "n            int     = 3\n");
  EXPECT_CONTAINS(r.out, "s            str     = 'hi'\n");
}

TEST(CliMeta, KernelsOfTheLastRealizeOrOfAnExpression) {
  const Result none = session(":kernels\n");
  EXPECT_CONTAINS(none.out, "no schedule yet");
  const Result r = session(std::string(kMatmul) + ":kernels b\nprint(b)\n:kernels\n");
  // :kernels b: the two reduces, without running them
  EXPECT_CONTAINS(r.out, "  0 kernel  r_4_4_4");
  EXPECT_CONTAINS(r.out, "why: its result feeds another reduce over other rows, and the reduces of a kernel walk the same rows");
  EXPECT_CONTAINS(r.out, "[ 260.  740. 1220. 1700.]");
  // after print(b): everything that statement ran, numbered as K counts
  const std::string after = r.out.substr(r.out.find("1700.]"));
  EXPECT_CONTAINS(after, "  0 kernel  r_4_4_4");
  EXPECT_CONTAINS(after, "  1 kernel  r_4_4");
}

TEST(CliMeta, AstUopsAndSourceOfKernelK) {
  const Result r = session(std::string(kMatmul) + "print(b)\n:ast 0\n:uops 1\n:src 1 opencl\n:src cuda\n:src 0\n");
  EXPECT_CONTAINS(r.out, "kernel 0 r_4_4_4 on CPU (opts: ");
  EXPECT_CONTAINS(r.out, "━┳ STORE MemBuffer(idx=0, dtype=float");
  EXPECT_CONTAINS(r.out, "kernel 1 r_4_4 on CPU");
  EXPECT_CONTAINS(r.out, "DEFINE_GLOBAL  : ptr.float");
  // a CPU kernel's GPU tab shows it lowered for that GPU, and says so
  EXPECT_CONTAINS(r.out, "// opencl\n// lowered for ");
  EXPECT_CONTAINS(r.out, "(this kernel ran on CPU)\n#pragma OPENCL FP_CONTRACT OFF\n__kernel void r_4_4");
  EXPECT_CONTAINS(r.out, "// cuda\n");
  EXPECT_CONTAINS(r.out, "extern \"C\" __global__ void");
  EXPECT_CONTAINS(r.out, "// c\n");
}

// :src K BACKEND uops: each line behind the numbers of the UOps it spells, as :uops K numbers them; a
// backend that lowers the kernel again lists its own UOps after; :ast K lazyop: the notes' form.
TEST(CliMeta, SourceWithItsUopsAndTheAstAsLazyOps) {
  const Result r = session("a = tensor([1, 2]); b = tensor([3, 4])\nprint((a * b).sum())\n:opt 2 none\n"
                           ":src 2 c uops\n:src 2 cuda uops\n:ast 2 lazyop\n:src 2 c uops more\n:ast 2 tree\n", 2);
  EXPECT_CONTAINS(r.out, "// c\nuops │\n     │ #include <math.h>\n");
  EXPECT_CONTAINS(r.out, " 0-2 │ void r_2(int* restrict data0, const int* restrict data1, const int* restrict data2");
  EXPECT_CONTAINS(r.out, "   3 │   int acc0 = 0;\n");
  EXPECT_CONTAINS(r.out, " 4-6 │   for (int ridx0 = 0; ridx0 < 2; ridx0++) {\n");  // its bounds are the constants 4, 5
  EXPECT_CONTAINS(r.out, "   7 │     int val0 = data1[ridx0];\n");
  EXPECT_CONTAINS(r.out, "9-11 │     acc0 = (acc0+(val0*val1));\n");  // the multiply inlined into the add
  EXPECT_CONTAINS(r.out, "  12 │   }\n");
  EXPECT_CONTAINS(r.out, "4,13 │   data0[0] = acc0;\n");
  EXPECT_CONTAINS(r.out, "its UOps as lowered for cuda:\n   0 DEFINE_GLOBAL");
  EXPECT_CONTAINS(r.out, "LazyOp(MetaOps.KERNEL, arg=None, src=(\n  LazyOp(BufferOps.STORE, arg=MemBuffer(idx=0, dtype=dtypes.int");
  EXPECT_CONTAINS(r.err, "error: usage: :src [K] [BACKEND] [uops]");
  EXPECT_CONTAINS(r.err, "error: usage: :ast [K] [lazyop]");
}

TEST(CliMeta, KernelsOfAnExpressionAreWhatTheViewsShow) {
  const Result r = session(std::string(kMatmul) + ":kernels b\n:ast 1\n:src 1 metal\n");
  EXPECT_CONTAINS(r.out, "kernel 1 r_4_4 on CPU");
  EXPECT_CONTAINS(r.out, "━┳ SUM (1,)");
  EXPECT_CONTAINS(r.out, "// metal\n// lowered for a nominal METAL GPU");
  EXPECT_CONTAINS(r.out, "(this kernel ran on CPU)\n#include <metal_stdlib>");
}

TEST(CliMeta, UnknownKernelsAndBackendsAreClearErrors) {
  const Result r = session(std::string(kMatmul) + ":ast\nprint(b)\n:ast 9\n:src 0 fortran\n:uops x\n:kernels 3\nprint(1)\n", 5);
  EXPECT_CONTAINS(r.err, "error: no schedule yet: realize something (print(x), x.realize()) or use :kernels x\n:ast\n^~~~\n");
  // print(b)'s two kernels, then the copy that reads b back
  EXPECT_CONTAINS(r.err, "error: no kernel 9 in the last schedule: it has 3 items (0..2)\n:ast 9\n     ^\n");
  EXPECT_CONTAINS(r.err, "error: unknown backend 'fortran' (backends: c, ");
  EXPECT_CONTAINS(r.err, ":src 0 fortran\n       ^~~~~~~\n");
  EXPECT_CONTAINS(r.err, "error: expected a kernel index (0..2), not 'x'\n");
  EXPECT_CONTAINS(r.err, "error: :kernels [x] needs a tensor, not int\n");
  EXPECT_CONTAINS(r.out, "\n1\n");  // the session went on
}

TEST(CliMeta, TimeShowsTheLastRealizeAndTheSession) {
  const Result r = session("x = arange(8).float()\nprint((x * 2).sum())\n:time\nprint(x.max())\n:time all\n:time now\n", 1);
  EXPECT_CONTAINS(r.out, "kernel                   device         time    GFLOPS     GB/s\n");
  const std::string last = r.out.substr(0, r.out.find("7.0\n"));
  // print reads the value back to the host: a copy, as DEBUG 2 lists it
  EXPECT_CONTAINS(last, "total: 1 kernel, 1 copy");
  const std::string all = r.out.substr(r.out.rfind("kernel                   device"));
  EXPECT_CONTAINS(all, "total: 2 kernels, 2 copies");
  EXPECT_CONTAINS(r.err, "error: usage: :time [all | K [N]]\n");
}

TEST(CliMeta, RepeatAndTimeKNRunKernelsAgainForMinAndMedian) {
  const Result r = session(std::string(kMatmul) + ":repeat 3\nprint(b)\n:time\n:time 1 4\n:repeat 0\nprint(b.max())\n:time\n"
                                                  ":time 9\n:time 0 0\n",
                           2);
  EXPECT_CONTAINS(r.out, "repeat 3\n");
  // while :repeat is on, the table has the repeats' columns, and each kernel ran 3 more times
  const std::string repeated = r.out.substr(r.out.find("kernel                   device"));
  EXPECT_CONTAINS(repeated, "GB/s         min      median  runs\n");
  EXPECT_CONTAINS(repeated.substr(repeated.find("\nr_") + 1, 100), "     3 ");
  EXPECT_CONTAINS(r.out, "4 runs on zeroed buffers: min ");
  EXPECT_CONTAINS(r.out, "(its first run: ");
  // with :repeat 0 the columns are gone again
  const std::string plain = r.out.substr(r.out.rfind("kernel                   device"));
  EXPECT_EQ(plain.find("median"), std::string::npos) << plain;
  EXPECT_CONTAINS(r.err, "error: no kernel 9 in the last schedule");
  EXPECT_CONTAINS(r.err, "error: the number of runs");
}

TEST(CliMeta, RepeatedRunsAreInTheJsonKernelEvents) {
  const Result r = run_here({"--json", "--repeat", "2", "-e", "print((arange(8) * 2).sum())"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "\"repeats\":2,\"min_us\":");
  EXPECT_CONTAINS(r.out, "\"median_us\":");
  const Result once = run_here({"--json", "-e", "print((arange(8) * 2).sum())"});
  EXPECT_EQ(once.out.find("repeats"), std::string::npos) << once.out;
}

TEST(CliMeta, ExplainTellsTheFusionStory) {
  const Result r = session("x = arange(8).float().reshape(2, 4)\nv = (x - x.mean(axis=0)).var(axis=1)\n:explain v\n");
  EXPECT_CONTAINS(r.out, "The lazy graph");
  EXPECT_CONTAINS(r.out, "Realizing it runs 2 kernels");
  EXPECT_CONTAINS(r.out, "it ends here because its result feeds another reduce over other rows");
}

TEST(CliMeta, StepShowsEveryStageInOrderWithoutWaitingInAPipe) {
  const Result r = session("x = tensor([1, 2])\ny = (x * tensor([3, 4])).sum()\n:step y\nprint(y)\n:step y\n");
  const std::vector<std::string> stages{"── 1/7 the lazy graph ──", "── 2/7 the schedule ──", "── 3/7 kernel 2: its AST ──",
                                        "── 4/7 kernel 2: its opts ──", "── 5/7 kernel 2: its UOps ──",
                                        "── 6/7 kernel 2: its source ──", "── 7/7 the run ──"};
  size_t at = 0;
  for (const std::string& s : stages) {
    const size_t next = r.out.find(s, at);
    ASSERT_NE(next, std::string::npos) << s << " after " << at << " in\n" << r.out;
    at = next;
  }
  EXPECT_CONTAINS(r.out, "copy    HOST -> CPU");
  EXPECT_CONTAINS(r.out, "\n11\n");
  // realized: nothing left to walk through but its graph and the news
  EXPECT_CONTAINS(r.out, "── 2/2 the schedule ──\nnothing to run: every buffer is realized\n");
}

TEST(CliMeta, StepShowsTheStopsOfTheStageModel) {
  const Result r = session(std::string(kMatmul) + ":step b\n");
  // the same graph built here: the walk the stage model gives it, which the TUI's :step walks too
  const Tensor a = Tensor::arange(int64_t{0}, int64_t{16}).reshape({4, 4}).cast(DType::Float32);
  const Tensor b = a.matmul(a).sum(std::vector<int>{1});
  const std::vector<StageStop> stops = stage_walk(create_schedule({base_of(b.node())}));
  ASSERT_EQ(stops.size(), 11u) << "graph, schedule, two kernels' four stages, run";
  size_t at = 0;
  for (size_t i = 0; i < stops.size(); i++) {
    const std::string heading = fmt::format("── {}/{} {} ──\n", i + 1, stops.size(), stop_title(stops[i]));
    const size_t next = r.out.find(heading, at);
    ASSERT_NE(next, std::string::npos) << heading << " after " << at << " in\n" << r.out;
    at = next;
  }
  EXPECT_EQ(r.out.find("── 12/"), std::string::npos);
  EXPECT_CONTAINS(r.out, "ShapeTracker views:\n");
  EXPECT_CONTAINS(r.out, "dims (AXIS for :opt):\n");
}

TEST(CliMeta, UopsAllShowsEachPassAndEndsWithTheFinalListing) {
  const Result r = session(std::string(kMatmul) + "print(b)\n:uops 1\n:uops 1 all\n:uops all\n:uops 1 each\n", 1);
  EXPECT_CONTAINS(r.err, "error: usage: :uops [K] [all]\n");
  const std::string title = "kernel 1 r_4_4 on CPU";
  const size_t plain = r.out.find(title), all = r.out.find(title, plain + 1), last = r.out.find(title, all + 1);
  ASSERT_NE(last, std::string::npos) << r.out;
  const std::string final_uops = r.out.substr(plain, all - plain), passes = r.out.substr(all, last - all);
  EXPECT_EQ(r.out.substr(last), passes) << ":uops all is the last kernel's";
  const std::string listing = final_uops.substr(final_uops.find('\n') + 1);
  ASSERT_NE(listing.find("launch: "), std::string::npos) << final_uops;
  // the passes this kernel's lowering runs, whatever they are, named in order
  const Tensor a = Tensor::arange(int64_t{0}, int64_t{16}).reshape({4, 4}).cast(DType::Float32);
  const std::vector<ScheduleItem> items = create_schedule({base_of(a.matmul(a).sum(std::vector<int>{1}).node())});
  const std::vector<PassSnapshot> passes_run = lowering_passes(lower(items[1], "CPU"));
  ASSERT_FALSE(passes_run.empty());
  size_t at = 0, listed = 0;
  for (size_t i = 0; i < passes_run.size(); i++) {
    const size_t next = passes.find(pass_heading(passes_run, i), at);
    ASSERT_NE(next, std::string::npos) << pass_heading(passes_run, i) << " in\n" << passes;
    at = next;
    if (pass_heading(passes_run, i).find(", unchanged") == std::string::npos) listed = next;
  }
  // the last listing shown (a pass that rewrote nothing shows none) is :uops K's
  const size_t from = passes.find('\n', listed) + 1;
  const size_t to = std::min(passes.size(), passes.find("── after pass", from));
  EXPECT_EQ(passes.substr(from, to - from), listing.substr(0, listing.find("launch: ")));
}

TEST(CliMeta, OptAppliesAnOptByHandAndOptsListsThem) {
  const Result r = session(
      "x = arange(64).float().reshape(8, 8)\nprint(x.sum(axis=1))\n:opts 0\n:opt 0 none\n:opt 0 upcast 0 4\n:opts 0\n"
      ":uops 0\n:opt 0 UNROLL 9 2\n:opt 0 SPLIT 0 2\n:opt 7 UPCAST 0 2\n",
      3);
  EXPECT_CONTAINS(r.out, "dims (AXIS for :opt):\n");
  EXPECT_CONTAINS(r.out, "kernel 0 r_8_8 on CPU (opts: none)");
  EXPECT_CONTAINS(r.out, "opts: UPCAST(0, 4))");
  EXPECT_CONTAINS(r.out, "tm ");
  EXPECT_CONTAINS(r.out, " GFLOPS ");
  EXPECT_CONTAINS(r.out, "upcast  size 4");
  EXPECT_CONTAINS(r.err, ":opt 0 UNROLL 9 2\n^~~~~~~~~~~~~~~~~\n");
  EXPECT_CONTAINS(r.err, "error: unknown opt 'SPLIT' (opts: UPCAST, UNROLL, LOCAL, GROUP, THREAD, PADTO, TC, STAGE, DOUBLE, BLOCK; or none)\n");
  EXPECT_CONTAINS(r.err, "error: no kernel 7 in the last schedule");
}

TEST(CliMeta, GraphAndTraceWriteTheirFiles) {
  const TempDir dir;
  const std::string dot = dir.file("g.dot"), trace = dir.file("t.json");
  const Result r = session("x = arange(4) * 2\n:graph x + 1\n:graph x " + dot + "\nprint(x.sum())\n:trace " + trace +
                               "\n:trace /nonexistent/dir/t.json\n",
                           1);
  EXPECT_CONTAINS(r.out, "digraph tinyrepl {");
  EXPECT_CONTAINS(r.out, "wrote " + dot);
  EXPECT_CONTAINS(read_file(dot), "digraph tinyrepl {");
  const auto trace_json = nlohmann::json::parse(read_file(trace));
  EXPECT_FALSE(trace_json.at("traceEvents").empty());
  EXPECT_CONTAINS(r.err, "error: cannot write '/nonexistent/dir/t.json'");
}

TEST(CliMeta, SaveWritesTheSuccessfulStatementsAndRunReplaysThem) {
  const TempDir dir;
  const std::string saved = dir.file("s.tg");
  const Result r = session("a = tensor([1, 2, 3]); b = a * 2\nc = nope\n:debug\n:noopt on\nprint(b.sum())\n:vars\n:save " +
                               saved + "\n:reset\n:vars\n:run " + saved + "\nb\n:run " + dir.file("missing.tg") + "\n",
                           2);
  EXPECT_EQ(read_file(saved), "a = tensor([1, 2, 3])\nb = a * 2\n:noopt on\nprint(b.sum())\n");
  EXPECT_CONTAINS(r.out, "saved 4 statements to " + saved);
  EXPECT_CONTAINS(r.out, "every name is forgotten\nno names yet");
  EXPECT_CONTAINS(r.out, "12\n<Tensor (3,) dtypes.int on CPU");
  EXPECT_CONTAINS(r.err, "error: cannot open '" + dir.file("missing.tg") + "': No such file or directory\n");
}

// A def is saved whole, its decorators and its 'def' included, so that the file runs again.
TEST(CliMeta, SaveKeepsADefWithItsDecorators) {
  const TempDir dir;
  const std::string saved = dir.file("f.tg");
  const std::string defs = "@jit\ndef f(x):\n  return x * 2\n\ndef g(y): return y + 1\n\n";
  const Result r = session(defs + "print(f(ones(2)), g(1))\n:save " + saved + "\n:reset\n:run " + saved + "\n");
  EXPECT_EQ(read_file(saved), "@jit\ndef f(x):\n  return x * 2\ndef g(y): return y + 1\nprint(f(ones(2)), g(1))\n");
  EXPECT_CONTAINS(r.out, "saved 3 statements to " + saved);
  // the file's run prints again what the session printed
  EXPECT_NE(r.out.find("[2. 2.] 2"), r.out.rfind("[2. 2.] 2")) << r.out;
}

TEST(CliMeta, AScriptRunFromASessionReportsItsOwnFileAndStops) {
  const TempDir dir;
  const std::string inner = dir.write("inner.tg", "p = 1\nq = p + tensor([1]) + tensor([1, 2, 3]) + ones(2)\nr = 3\n");
  const Result r = session(":run " + inner + "\np\nr\n", 2);
  EXPECT_CONTAINS(r.err, inner + ":2:");
  EXPECT_CONTAINS(r.out, "1\n");
  EXPECT_CONTAINS(r.err, "error: name 'r' is not defined");
  const std::string self = dir.file("self.tg");
  dir.write("self.tg", ":run " + self + "\n");
  const Result loop = session(":run " + self + "\nprint(2)\n", 1);
  EXPECT_CONTAINS(loop.err, "scripts run inside each other 16 deep");
  EXPECT_CONTAINS(loop.out, "2\n");
}

TEST(CliMeta, SettingsCommandsShowAndChangeTheSettings) {
  const Result r = session(":device\n:device cpu\n:device nowhere\n:render opencl, cuda\n:render\n:render none\n"
                           ":render nope\n:debug 1\nprint(arange(3).sum())\n:debug 0\n:debug six\n:noopt on\n:noopt\n"
                           ":noopt maybe\n:beam 0\n:beam -2\n",
                           5);
  EXPECT_CONTAINS(r.out, "* CPU      available\n  instruction set: ");
  EXPECT_CONTAINS(r.out, "float32 lanes)\n  cores: ");
  EXPECT_CONTAINS(r.out, "new tensors go to CPU\n");
  EXPECT_CONTAINS(r.err, "error: unknown device 'nowhere' (devices: CPU");
  EXPECT_CONTAINS(r.out, "render: opencl,cuda\n");
  EXPECT_CONTAINS(r.out, "render: the device's own\n");
  EXPECT_CONTAINS(r.out, "scheduled 1 kernels in ");
  EXPECT_CONTAINS(r.err, "error: the debug level must be a whole number from 0 to 6, not 'six'\n:debug six\n       ^~~\n");
  EXPECT_CONTAINS(r.out, "noopt on: kernels run without opts\nnoopt on: kernels run without opts\n");
  EXPECT_CONTAINS(r.err, "error: :noopt must be on or off, not 'maybe'\n");
  EXPECT_CONTAINS(r.err, "error: the beam width must be a whole number from 0 to 64, not '-2'\n");
}

// :device load opens a plug-in (the example PLUGCPU), whose device then runs like any other; a second
// load of the same name and a path that is no plug-in are errors, and the session goes on.
TEST(CliMeta, DeviceLoadAddsAPluginDevice) {
  const std::string plugin = TINYREPL_CPU_PLUGIN;
  const Result r = session(":device load " + plugin + "\n:device PLUGCPU\nx = arange(6).float()\nprint((x * 2).sum(), x.device)\n"
                           ":device load " + plugin + "\n:device load /nowhere/p.so\n:device load\n:device\n",
                           3);
  EXPECT_CONTAINS(r.out, "loaded the device PLUGCPU from " + plugin + " (:device PLUGCPU makes it the default)\n");
  EXPECT_CONTAINS(r.out, "new tensors go to PLUGCPU\n");
  EXPECT_CONTAINS(r.out, "30.0 PLUGCPU\n");
  EXPECT_CONTAINS(r.err, "error: a device named PLUGCPU exists already\n");
  EXPECT_CONTAINS(r.err, "error: cannot load the device plug-in /nowhere/p.so: ");
  EXPECT_CONTAINS(r.err, "error: usage: :device load PATH (the path of a device plug-in, a shared library)\n");
  EXPECT_CONTAINS(r.out, "* PLUGCPU  available\n");
}

TEST(CliMeta, NooptChangesWhatKernelsRunWith) {
  const Result r = session(":noopt on\nx = arange(64).float()\nprint(x.sum())\n:opts\n");
  EXPECT_CONTAINS(r.out, "(opts: none)");
}

TEST(CliMeta, HelpAndUnknownCommands) {
  const Result r = session(":help\n:help sum\n:help keys\n:help opts\n:help PADTO\n:help nothing_at_all\n:kernal\n:quit now\n", 3);
  EXPECT_CONTAINS(r.out, ":opt K OP AXIS AMOUNT");
  EXPECT_CONTAINS(r.out, "opts (:opt K OP AXIS AMOUNT; :opts K shows the dims that AXIS counts):\n  UPCAST  global dim -> ");
  EXPECT_CONTAINS(r.out, "  THREAD  global or reduce dim -> outer piece thread: ");
  EXPECT_CONTAINS(r.out, "BEAM tries: the cores; needs a CPU with several cores\n");
  EXPECT_CONTAINS(r.out, "\n  PADTO   global or reduce dim -> padded, masked: pad a dim up to a multiple of AMOUNT");
  EXPECT_CONTAINS(r.out, "method x.sum(axis=None, keepdim=False, dtype=None)\n");
  EXPECT_CONTAINS(r.out, "Ctrl-D");
  EXPECT_CONTAINS(r.err, "error: no help on 'nothing_at_all'\n");
  EXPECT_CONTAINS(r.err, "error: unknown command ':kernal'; did you mean ':kernels'? (:help lists the commands)\n");
  EXPECT_CONTAINS(r.err, "error: usage: :quit\n");
}

}  // namespace
}  // namespace tr::repl
