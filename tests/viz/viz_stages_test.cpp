// The stage model of viz/stages: the walk from a lazy graph to a run, and the text of each stage.
#include <gtest/gtest.h>

#include "core/base/context.h"
#include "core/realize/realize.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"
#include "tests/tensor_testing.h"
#include "viz/stages.h"
#include "viz/timings.h"

namespace tr {
namespace {

using testing::tensor;

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
  return n;
}

TEST(VizStages, TheWalkHasEveryKernelsStagesBetweenTheScheduleAndTheRun) {
  const Tensor a = Tensor::arange(int64_t{0}, int64_t{16}).reshape({4, 4}).cast(DType::Float32);
  const Tensor b = a.matmul(a).sum(std::vector<int>{1}).add(tensor({1, 2, 3, 4}));
  const std::vector<ScheduleItem> items = create_schedule({base_of(b.node())});
  std::vector<StageStop> expected{{Stage::Graph}, {Stage::Schedule}};
  for (size_t i = 0; i < items.size(); i++)
    if (items[i].kind == ScheduleItem::Kind::Kernel)
      for (const Stage s : {Stage::Ast, Stage::Opts, Stage::Uops, Stage::Source})
        expected.push_back({s, static_cast<int>(i)});
  expected.push_back({Stage::Run});
  ASSERT_GE(items.size(), 3u) << "a copy and two reduces";
  EXPECT_EQ(stage_walk(items), expected);
  EXPECT_EQ(stop_title(expected[0]), "the lazy graph");
  EXPECT_EQ(stop_title({Stage::Opts, 2}), "kernel 2: its opts");
  EXPECT_EQ(stop_title(expected.back()), "the run");
}

TEST(VizStages, NothingToRunLeavesTheGraphAndTheSchedule) {
  Tensor x = tensor({5, 6}, DType::Int32);
  x.realize();
  const std::vector<ScheduleItem> items = create_schedule({base_of(x.node())});
  EXPECT_EQ(stage_walk(items), (std::vector<StageStop>{{Stage::Graph}, {Stage::Schedule}}));
  EXPECT_EQ(schedule_text(items), "nothing to run: every buffer is realized\n");
}

TEST(VizStages, AstAndOptsTextsShowTheViewsAndTheDimsWithRoles) {
  settings().noopt = true;
  const Tensor m = Tensor::arange(int64_t{0}, int64_t{8}).reshape({2, 4});
  const Tensor s = m.permute({1, 0}).sum(std::vector<int>{1});
  const std::vector<ScheduleItem> items = create_schedule({base_of(s.node())});
  ASSERT_EQ(items.size(), 1u);
  const KernelRecord k = lower(items[0], "CPU");
  settings().noopt = false;
  const std::string ast = ast_text(*k.kernel);
  EXPECT_EQ(ast.rfind(print_ast(k.kernel->ast), 0), 0u) << "the tree comes first\n" << ast;
  EXPECT_NE(ast.find("ShapeTracker views:\n  STORE idx=0  view 0: "), std::string::npos) << ast;
  EXPECT_EQ(opts_text(*k.kernel),
            "full shape (4, 2), reduce axes from 1\n"
            "dims (AXIS for :opt):\n"
            "   0  global  size 4      axis 0 of the full shape\n"
            "   1  reduce  size 2      axis 1 of the full shape\n"
            "opts: none\n");
}

TEST(VizStages, PassesTextNamesEachPassInOrderAndEndsWithTheFinalListing) {
  UOpProgram p;
  const UOp global{.kind = UOpKind::DefineGlobal, .dtype = DType::Float32, .ptr = true};
  const UOp one{.kind = UOpKind::Const, .dtype = DType::Float32, .value = 1.0};
  p.passes = {{"first", {global}}, {"second", {global, one}}, {"third", {global, one, one}}};
  p.uops = p.passes.back().uops;
  const std::string text = passes_text(p.passes);
  const size_t first = text.find("── after pass 1 of 3, first: 1 uops ──\n");
  const size_t second = text.find("── after pass 2 of 3, second: 2 uops ──\n");
  const size_t third = text.find("── after pass 3 of 3, third: 3 uops ──\n");
  ASSERT_NE(first, std::string::npos) << text;
  EXPECT_LT(first, second);
  ASSERT_LT(second, third);
  EXPECT_EQ(text.substr(text.find('\n', third) + 1), print_uops(p.uops));
  EXPECT_EQ(count(text, "CONST"), 3u);
  EXPECT_EQ(uops_text(p).rfind(print_uops(p.uops), 0), 0u);
  EXPECT_NE(uops_text(p).find("launch: global [1, 1, 1] local [1, 1, 1]"), std::string::npos);
}

// A long run of replays keeps the newest records only, numbered on; the totals count every one.
TEST(RunHistoryBound, KeepsTheNewestRecordsAndCountsThemAll) {
  RunHistory h;
  const size_t n = RunHistory::kKept + 10;
  for (size_t i = 0; i < n; i++)
    h.add(RunRecord{.is_copy = true, .copy = CopyRecord{.bytes = 4, .from = "HOST", .to = "CPU", .seconds = 1e-6}});
  EXPECT_EQ(h.count(), n);
  EXPECT_EQ(h.since(0).size(), RunHistory::kKept);
  EXPECT_EQ(h.since(n - 3).size(), 3u);
  EXPECT_TRUE(h.since(n).empty());
  EXPECT_EQ(h.totals().copies, static_cast<int64_t>(n));
  EXPECT_EQ(h.totals().kernels, 0);
  EXPECT_NEAR(h.totals().seconds, static_cast<double>(n) * 1e-6, 1e-9);
  const RunTotals before = h.totals();
  h.add(RunRecord{.is_copy = true, .copy = CopyRecord{.bytes = 4, .from = "CPU", .to = "HOST", .seconds = 2e-6}});
  EXPECT_EQ(h.totals().since(before).copies, 1);
  EXPECT_EQ(totals_line(h.totals().since(before)), "total: 0 kernels, 1 copy, 0.000 GFLOP, 0.000 GB, 0.002 ms\n");
  h.clear();
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.totals().copies, 0);
}

}  // namespace
}  // namespace tr
