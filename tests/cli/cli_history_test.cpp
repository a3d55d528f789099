// The schedule history (repl/app/schedule_history.h): every statement's schedules kept within its
// bounds, runs paired with their items, the statement the kernel views look at; and in a piped session
// :history, the views of an older statement, and :diff of two versions of a kernel.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <regex>

#include "core/base/error.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"
#include "repl/app/schedule_history.h"
#include "tests/cli_testing.h"

namespace tr::repl {
namespace {

using testing::Result;
using testing::run_here;

RunRecord copy_of(int64_t bytes) {
  return RunRecord{.is_copy = true, .copy = CopyRecord{.bytes = bytes, .from = "CPU", .to = "HOST"}};
}

KernelRecord named(const std::string& name) {
  KernelRecord k;
  k.name = name;
  return k;
}

RunRecord kernel_run(const std::string& name) {
  RunRecord r;
  r.kernel = named(name);
  return r;
}

void statement(ScheduleHistory& h, const std::string& text, const std::vector<RunRecord>& runs) {
  h.begin_statement(text);
  for (const RunRecord& r : runs) h.add_run(r);
  h.end_statement();
}

TEST(ScheduleHistoryBounds, AStatementKeepsItsNewestItemsAndCountsThoseLetGo) {
  ScheduleHistory h;
  h.begin_statement("for i in range(5000): print(x)");
  for (int64_t i = 0; i < static_cast<int64_t>(ScheduleHistory::kMaxItems) + 10; i++) h.add_run(copy_of(i));
  h.end_statement();
  ASSERT_EQ(h.entries().size(), 1u);
  const StatementSchedule& s = h.entries().front();
  EXPECT_EQ(s.items.size(), ScheduleHistory::kMaxItems);
  EXPECT_EQ(s.dropped, 10u);
  EXPECT_EQ(s.items.front().run->copy.bytes, 10);
}

TEST(ScheduleHistoryBounds, TheOldestStatementsGoPastTheStatementBound) {
  ScheduleHistory h;
  for (size_t i = 1; i <= ScheduleHistory::kMaxStatements + 50; i++)
    statement(h, fmt::format("print({})", i), {kernel_run("E_4")});
  EXPECT_EQ(h.entries().size(), ScheduleHistory::kMaxStatements);
  EXPECT_EQ(h.entries().front().number, 51u);
  EXPECT_EQ(h.entries().front().statement, "print(51)");
  EXPECT_EQ(h.selected()->number, ScheduleHistory::kMaxStatements + 50);
}

TEST(ScheduleHistoryBounds, TheOldestStatementsGoPastTheItemBound) {
  ScheduleHistory h;
  const std::vector<RunRecord> many(ScheduleHistory::kMaxItems / 2 - 1, kernel_run("E_4"));
  for (int i = 0; i < 3; i++) statement(h, "step()", many);
  ASSERT_EQ(h.entries().size(), 2u) << "three halves do not fit";
  EXPECT_EQ(h.entries().front().number, 2u);
}

TEST(ScheduleHistoryBounds, OptKeepsTheVersionsItReplacedUpToItsBound) {
  ScheduleHistory h;
  statement(h, "print(x)", {kernel_run("r_4")});
  for (size_t i = 0; i < ScheduleHistory::kMaxVersions + 3; i++) h.replace_kernel(0, named(fmt::format("v{}", i + 1)));
  const std::vector<KernelRecord> versions = h.replaced(0);
  ASSERT_EQ(versions.size(), ScheduleHistory::kMaxVersions);
  EXPECT_EQ(versions.front().name, "v3") << "the oldest went";
  EXPECT_EQ(versions.back().name, fmt::format("v{}", ScheduleHistory::kMaxVersions + 2));
  EXPECT_EQ(h.kernel(0).name, fmt::format("v{}", ScheduleHistory::kMaxVersions + 3));
}

TEST(ScheduleHistory, AStatementOfCopiesOnlyLeavesTheViewsOnTheKernelsBeforeIt) {
  ScheduleHistory h;
  statement(h, "print(tensor([1, 2]))", {copy_of(8), copy_of(8)});
  EXPECT_EQ(h.selected()->number, 1u) << "with no kernel before, the copies are what there is";
  statement(h, "c = (a @ b).realize()", {kernel_run("r_64_64_64")});
  statement(h, "print(rand(512, 512))", {copy_of(1 << 20), copy_of(1 << 20)});
  EXPECT_EQ(h.entries().size(), 3u) << "kept all the same";
  EXPECT_EQ(h.selected()->statement, "c = (a @ b).realize()");
  EXPECT_EQ(h.kernel(h.kernel_index(std::nullopt)).name, "r_64_64_64");
  h.select(-1);
  EXPECT_EQ(h.selected()->statement, "print(rand(512, 512))");
}

TEST(ScheduleHistory, StepMovesBetweenStatementsAndStopsAtTheEnds) {
  ScheduleHistory h;
  statement(h, "a", {kernel_run("E_1")});
  statement(h, "b", {kernel_run("E_2")});
  EXPECT_FALSE(h.step(1));
  EXPECT_TRUE(h.step(-1));
  EXPECT_EQ(h.selected()->statement, "a");
  EXPECT_FALSE(h.step(-1));
  const uint64_t seen = h.version();
  h.select(2);
  EXPECT_NE(h.version(), seen) << "a viewer looks again";
  EXPECT_EQ(h.selected()->statement, "b");
  EXPECT_THROW(h.select(3), Error);
  EXPECT_THROW(h.select(0), Error);
}

TEST(ScheduleHistory, RunsPairWithTheirItemsInWhateverOrderTheyEndAndOthersFollow) {
  const Tensor a = Tensor::arange(int64_t{0}, int64_t{4}).realize();
  const Tensor m = a.mul(a).sum().contiguous();
  const std::vector<ScheduleItem> schedule = create_schedule({base_of(a.sub(m).sum().node())});
  ASSERT_EQ(schedule.size(), 2u);
  ScheduleHistory h;
  h.begin_statement("print(x)");
  h.add_schedule(schedule);
  RunRecord second = kernel_run("second"), first = kernel_run("first");
  second.item = 1;
  first.item = 0;
  h.add_run(second);
  h.add_run(first);
  h.add_run(copy_of(4));  // the read-back of print
  h.add_schedule(schedule);  // a second realize: its item 0 is K 3
  first.kernel.name = "again";
  h.add_run(first);
  h.end_statement();
  const StatementSchedule& s = *h.selected();
  ASSERT_EQ(s.items.size(), 5u);
  EXPECT_EQ(s.items[0].run->kernel.name, "first");
  EXPECT_EQ(s.items[1].run->kernel.name, "second");
  EXPECT_FALSE(s.items[2].scheduled);
  EXPECT_TRUE(s.items[2].run->is_copy);
  EXPECT_EQ(s.items[3].run->kernel.name, "again");
  EXPECT_FALSE(s.items[4].run) << "an item after one that failed has no run";
  EXPECT_EQ(s.runs().size(), 4u);
}

// A piped session of these lines, `errors` of them failing.
Result session(const std::string& input, int errors = 0, const std::vector<std::string>& args = {}) {
  Result r = run_here(args, input);
  EXPECT_EQ(r.status, errors ? 2 : 0) << r.err;
  return r;
}

// What follows the first occurrence of `mark` in the output: what the commands after it printed.
std::string after(const std::string& out, const std::string& mark) {
  const size_t at = out.find(mark);
  EXPECT_NE(at, std::string::npos) << "no " << mark << " in:\n" << out;
  return at == std::string::npos ? "" : out.substr(at + mark.size());
}

bool matches(const std::string& text, const std::string& pattern) {
  return std::regex_search(text, std::regex(pattern));
}

constexpr const char* kMatmul = "c = (rand(64,64) @ rand(64,64)).realize()\n";

TEST(CliHistory, TheMatmulStaysReachableAfterAPrintRunsAnotherKernel) {
  const Result r = session(std::string(kMatmul) + "print(c[0, :4])\n:kernels\n:history\n:history -2\n:src\n");
  const std::string printed = after(r.out, "]\n");
  EXPECT_TRUE(matches(printed, R"(^  0 kernel  E_4(n[0-9]+)? +CPU)")) << printed;
  EXPECT_CONTAINS(printed, "  1 copy    CPU -> HOST     16 bytes\n      why: the value is read back to the host");
  EXPECT_TRUE(matches(printed, R"(\n +1 +1 +2 +[0-9.]+us  c = \(rand\(64,64\) @ rand\(64,64\)\).realize\(\)\n)")) << printed;
  EXPECT_TRUE(matches(printed, R"(\n> +2 +1 +1 +[0-9.]+us  print\(c\[0, :4\]\)\n)")) << printed;
  const std::string back = after(printed, ":history N selects statement N");
  EXPECT_CONTAINS(back, "statement 1: c = (rand(64,64) @ rand(64,64)).realize()\n  0 copy    HOST -> CPU");
  EXPECT_TRUE(matches(back, R"(\n  2 kernel  r_[0-9_]+ +CPU)")) << back;
  EXPECT_TRUE(matches(back, R"(kernel 2 r_[0-9_]+ on CPU)")) << ":src looks at the matmul again:\n" << back;
}

TEST(CliHistory, AStatementOfCopiesOnlyLeavesTheViewsOnTheKernelsBeforeIt) {
  const Result r = session(std::string(kMatmul) + "x = rand(512, 512).realize()\n:kernels\n:time\n:history\n:history -1\n");
  EXPECT_CONTAINS(r.out, "statement 1: c = (rand(64,64) @ rand(64,64)).realize()\n");
  EXPECT_TRUE(matches(r.out, R"(\n  2 kernel  r_[0-9_]+ +CPU)")) << r.out;
  EXPECT_TRUE(matches(r.out, R"(\nr_[0-9_]+ +CPU +[0-9.]+us)")) << ":time is the matmul's:\n" << r.out;
  EXPECT_TRUE(matches(r.out, R"(\n +2 +0 +1 +[0-9.]+[mu]s  x = rand\(512, 512\).realize\(\)\n)")) << r.out;
  EXPECT_CONTAINS(after(r.out, "(-1: the newest)\n"),
                  "statement 2: x = rand(512, 512).realize()\n  0 copy    HOST -> CPU      #");
}

TEST(CliHistory, AJitReplayAndItsReadBackAreItemsAsTimingsListsThem) {
  const Result r = session(
      "w = randn(8, 4, seed=1).realize()\nx = randn(16, 8, seed=2).realize()\nopt = nn.optim.SGD([w], lr=0.1)\n"
      "@jit\n@Context(TRAINING=1)\ndef step():\n    opt.zero_grad()\n    loss = (x @ w).relu().sum()\n"
      "    loss.backward()\n    opt.step()\n    return loss.realize()\n\n"
      "step()\nstep()\nprint(round(step().item(), 2))\n:kernels\n:time\n");
  const std::string listed = after(r.out, "dtypes.float on CPU, realized>\n");
  int replayed = 0, rows = 0;
  for (size_t at = listed.find("replayed by @jit"); at != std::string::npos; at = listed.find("replayed by @jit", at + 1))
    replayed++;
  const std::string timings = after(listed, "GB/s\n");
  for (size_t at = timings.find(" (jit) "); at != std::string::npos; at = timings.find(" (jit) ", at + 1)) rows++;
  EXPECT_GE(replayed, 3) << listed;
  EXPECT_EQ(replayed, rows) << "the kernels K numbers are the ones :time lists:\n" << listed;
  EXPECT_TRUE(matches(listed, R"(\n +[0-9]+ copy    CPU -> HOST     4 bytes\n)")) << listed;
}

TEST(CliHistory, DiffShowsWhatAnOptChangedWithBothTimes) {
  const Result r = session(std::string(kMatmul) + ":opt 2 UPCAST 0 4\n:diff 2\n:diff 2 ran now\n", 0, {"--noopt"});
  const std::string d = after(r.out, "before: ");
  EXPECT_TRUE(matches(d, R"(\n--- r_64_64_64\S* before \(opts: none\) in c, [0-9.]+us\n)")) << d;
  EXPECT_TRUE(matches(d, R"(\n\+\+\+ r_16_4_64_64\S* now \(opts: UPCAST\(0, 4\)\) in c, [0-9.]+us\n@@ -)")) << d;
  EXPECT_CONTAINS(d, "\n+      float acc3 = 0.0f;\n");  // the upcast's four accumulators
  EXPECT_TRUE(matches(d, R"(\n[0-9]+ lines? removed, [0-9]+ added; [0-9.]+x the time\n)")) << d;
  EXPECT_TRUE(matches(d, R"(\n--- r_64_64_64\S* ran \(opts: none\))")) << "ran is the first version:\n" << d;
}

TEST(CliHistory, DiffRendersTheSameKernelForTwoBackends) {
  const Result r = session(std::string(kMatmul) + ":diff 2 cuda opencl\n", 0, {"--noopt"});
  EXPECT_TRUE(matches(r.out, R"(--- (r_64_64_64\S*) now in cuda, not run\n\+\+\+ \1 now in opencl, not run\n)")) << r.out;
  EXPECT_TRUE(matches(r.out, R"(\n-extern "C" __global__ void r_64_64_64)")) << r.out;
  EXPECT_TRUE(matches(r.out, R"(\n\+__kernel void r_64_64_64)")) << r.out;
  EXPECT_LACKS(r.out, "x the time");
}

TEST(CliHistory, DiffTimesTheDefaultOptsAgainstBeamAndNone) {
  const Result r = session(std::string(kMatmul) + ":diff 2 noopt beam=1\n:diff 2 default\n", 0, {"--noopt"});
  EXPECT_TRUE(matches(r.out, R"(--- r_64_64_64\S* noopt \(opts: none\) in c, [0-9.]+us\n\+\+\+ r_\S+ beam=1 \(opts: [A-Z])")) << r.out;
  EXPECT_TRUE(matches(r.out, R"(\+\+\+ r_\S+ default \(opts: .*\) in c, [0-9.]+us\n)")) << r.out;
  const size_t first = r.out.find("x the time\n");
  EXPECT_NE(r.out.find("x the time\n", first + 1), std::string::npos) << "both diffs timed both sides:\n" << r.out;
}

TEST(CliHistory, HistoryAndDiffErrorsPointAtTheArgument) {
  const Result r = session(std::string(kMatmul) + ":diff 2\n:diff 2 fortran\n:diff 0\n:history 9\n:history x\nprint(1)\n", 5);
  EXPECT_CONTAINS(r.err, "error: kernel 2 has no version before this one: :opt 2 OP AXIS AMOUNT makes one; or compare it "
                         "with now, ran, before, default, noopt, beam, beam=N, or a backend\n");
  EXPECT_CONTAINS(r.err, "error: unknown version 'fortran' (versions: now, ran, before, default, noopt, beam, beam=N, or "
                         "a backend: c, ");
  EXPECT_CONTAINS(r.err, ":diff 2 fortran\n        ^~~~~~~\n");
  EXPECT_CONTAINS(r.err, "error: item 0 of the last schedule is a copy, not a kernel\n:diff 0\n      ^\n");
  EXPECT_CONTAINS(r.err, "error: no statement 9 in the history: it keeps 1..1 (or -1 for the newest, -2 before it, ...)\n");
  EXPECT_CONTAINS(r.err, ":history x\n         ^\n");
  EXPECT_EQ(r.out, "1\n") << "the session went on";
}

}  // namespace
}  // namespace tr::repl
