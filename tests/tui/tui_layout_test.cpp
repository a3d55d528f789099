// Where the panes go: every pane on screen and apart at the sizes SPEC section 6 names, zoom, too small.
#include <gtest/gtest.h>

#include "viz/tui/help.h"
#include "viz/tui/layout.h"
#include "viz/tui/text.h"

namespace tr::tui {
namespace {

bool overlap(const Rect& a, const Rect& b) {
  return a.y < b.y + b.h && b.y < a.y + a.h && a.x < b.x + b.w && b.x < a.x + a.w;
}

void expect_tiled(const Layout& l, int cols, int rows, int min_inner_rows, int min_inner_cols) {
  ASSERT_FALSE(l.too_small);
  int area = l.status.h * l.status.w;
  for (int i = 0; i < kPanes; i++) {
    const Rect& r = l.panes[i];
    SCOPED_TRACE(std::string(pane_name(static_cast<PaneId>(i))));
    EXPECT_GE(r.h - 2, min_inner_rows);
    EXPECT_GE(r.w - 2, min_inner_cols);
    EXPECT_GE(r.y, 0);
    EXPECT_GE(r.x, 0);
    EXPECT_LE(r.y + r.h, rows - l.status.h);
    EXPECT_LE(r.x + r.w, cols);
    for (int j = i + 1; j < kPanes; j++) EXPECT_FALSE(overlap(r, l.panes[j])) << pane_name(static_cast<PaneId>(j));
    area += r.h * r.w;
  }
  EXPECT_EQ(area, cols * rows) << "the panes and the status line fill the screen";
}

// The middle row holds three panes (AST, UOps, Roofline): its narrowest, the roofline's quarter, is 30
// columns of 120 and 20 of 80 (z zooms it).
TEST(TuiLayout, EveryPaneHasRoomAt120x40) { expect_tiled(layout(120, 40, std::nullopt, 1), 120, 40, 6, 28); }

TEST(TuiLayout, EveryPaneIsUsableAt80x24) { expect_tiled(layout(80, 24, std::nullopt, 1), 80, 24, 4, 18); }

TEST(TuiLayout, TheRooflineStandsRightOfTheUopsAndTheTreeKeepsTheMostRoom) {
  const Layout l = layout(120, 40, std::nullopt, 1);
  const Rect& ast = l.panes[static_cast<int>(PaneId::Ast)];
  const Rect& uops = l.panes[static_cast<int>(PaneId::Uops)];
  const Rect& roofline = l.panes[static_cast<int>(PaneId::Roofline)];
  EXPECT_EQ(roofline.y, uops.y);
  EXPECT_EQ(roofline.x, uops.x + uops.w);
  EXPECT_EQ(roofline.x + roofline.w, 120);
  EXPECT_GE(ast.w - 2, 45);
  EXPECT_GE(uops.w - 2, 40);
}

TEST(TuiLayout, StepExplanationsTakeRowsFromThePanes) {
  const Layout l = layout(80, 24, std::nullopt, 9);
  EXPECT_EQ(l.status.h, kMaxStatusRows);
  expect_tiled(l, 80, 24, 3, 18);
}

TEST(TuiLayout, BelowTheMinimumIsTooSmall) {
  EXPECT_TRUE(layout(79, 24, std::nullopt, 1).too_small);
  EXPECT_TRUE(layout(80, 23, std::nullopt, 1).too_small);
  EXPECT_TRUE(layout(0, 0, std::nullopt, 1).too_small);
}

TEST(TuiLayout, ZoomGivesOnePaneAllTheRoom) {
  const Layout l = layout(100, 30, PaneId::Uops, 2);
  for (int i = 0; i < kPanes; i++) {
    const Rect& r = l.panes[i];
    if (static_cast<PaneId>(i) == PaneId::Uops) {
      EXPECT_EQ(r.h, 28);
      EXPECT_EQ(r.w, 100);
    } else {
      EXPECT_TRUE(r.empty());
    }
  }
}

TEST(TuiLayout, FocusOrderWrapsBothWays) {
  EXPECT_EQ(next_pane(PaneId::Repl, 1), PaneId::Kernels);
  EXPECT_EQ(next_pane(PaneId::Kernels, -1), PaneId::Repl);
  EXPECT_EQ(next_pane(PaneId::Kernels, 1), PaneId::Timings);
  EXPECT_EQ(next_pane(PaneId::Uops, 1), PaneId::Roofline);
  EXPECT_EQ(next_pane(PaneId::Roofline, 1), PaneId::Source);
  EXPECT_EQ(pane_name(PaneId::Ast), "AST");
}

TEST(TuiLayout, TheKeysFitTheSmallestTerminal) {
  for (const std::string& line : split_lines(keys_help()))
    EXPECT_LE(display_width(line), kMinCols - 6) << line << ": the help box has a frame and margins";
}

}  // namespace
}  // namespace tr::tui
