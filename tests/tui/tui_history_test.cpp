// The panes of a schedule history: Kernels and Timings sorted by time with their header kept at the
// top, and a :diff in colour.
#include <gtest/gtest.h>

#include "viz/tui/pane_content.h"
#include "viz/tui/pane_wrap.h"

namespace tr::tui {
namespace {

TuiItem copy_that_took(double seconds) {
  return TuiItem{.record = RunRecord{.is_copy = true, .copy = CopyRecord{.bytes = 8, .from = "HOST", .to = "CPU",
                                                                         .seconds = seconds}},
                 .ran = true};
}

TEST(TuiHistory, SortedByTimeTheLongestComesFirstAndWhatDidNotRunLast) {
  std::vector<TuiItem> items{copy_that_took(1e-6), copy_that_took(3e-6), TuiItem{}, copy_that_took(2e-6)};
  items[2].record.is_copy = true;
  EXPECT_EQ(item_order(items, false), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(item_order(items, true), (std::vector<int>{1, 3, 0, 2}));
  std::vector<RunRecord> runs;
  for (const TuiItem& t : items) runs.push_back(t.record);
  const std::vector<RunRecord> sorted = longest_first(runs);
  EXPECT_EQ(sorted[0].copy.seconds, 3e-6);
  EXPECT_EQ(sorted[3].copy.seconds, 0);
}

TEST(TuiHistory, TheKernelsPaneKeepsKWhenItsRowsAreSortedAndMarksTheSelectedRow) {
  const std::vector<TuiItem> items{copy_that_took(1e-6), copy_that_took(3e-6)};
  const PaneText p = kernels_pane(items, 0, item_order(items, true), "#2 print(x)");
  EXPECT_EQ(p.title, "Kernels · #2 print(x)");
  ASSERT_EQ(p.lines.size(), 3u);
  EXPECT_EQ(p.lines[1].substr(0, 2), " 1") << "the longest, K 1, is the first row";
  EXPECT_EQ(p.lines[2].substr(0, 2), " 0");
  EXPECT_EQ(p.mark_begin, 2) << "K 0 is selected, on the second row";
  EXPECT_EQ(p.fixed, 1) << "the header stays put";
}

TEST(TuiHistory, TheHeadersOfKernelsAndTimingsStayPutWrappedToo) {
  const std::vector<TuiItem> items{copy_that_took(1e-6)};
  const PaneText timings = timings_pane({items[0].record}, 0, 10, "", "");
  EXPECT_EQ(timings.fixed, 1);
  EXPECT_NE(timings.lines[0].find("GFLOPS"), std::string::npos);
  const PaneText folded = wrapped(timings, 20);
  EXPECT_GT(folded.fixed, 1) << "the header's rows, folded at 20 columns";
  EXPECT_EQ(folded.origin[static_cast<size_t>(folded.fixed)], 1) << "the rows after the fixed ones are the table's";
  EXPECT_EQ(timings_pane({}, -1, 10, "", "").fixed, 0) << "no table, no header";
}

TEST(TuiHistory, ADiffColoursRemovedAddedAndHunkLines) {
  const PaneText p = diff_pane("Diff", "--- a\n+++ b\n@@ -1,2 +1,2 @@\n same\n-old\n+new\n");
  ASSERT_EQ(p.spans.size(), 6u);
  EXPECT_EQ(p.spans[0][0].style, Style::Keyword);
  EXPECT_EQ(p.spans[1][0].style, Style::Keyword);
  EXPECT_EQ(p.spans[2][0].style, Style::Hunk);
  EXPECT_TRUE(p.spans[3].empty()) << "context is plain";
  EXPECT_EQ(p.spans[4][0].style, Style::Removed);
  EXPECT_EQ(p.spans[4][0].end, 4u) << "the whole line";
  EXPECT_EQ(p.spans[5][0].style, Style::Added);
}

}  // namespace
}  // namespace tr::tui
