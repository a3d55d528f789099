// The wrap key's folding of a pane's text: rows that fit the width, colours and marks that follow.
#include <gtest/gtest.h>

#include "viz/tui/pane_wrap.h"
#include "viz/tui/text.h"

namespace tr::tui {
namespace {

TEST(TuiWrap, LongLinesBecomeRowsThatFitAndRememberTheirLine) {
  PaneText p = pane_text("Source", "int x = 1234567890;\nshort\n\n━━━━━\n", Syntax::C);
  p.mark_begin = 1;
  p.mark_end = 2;
  p.anchor = 3;
  const PaneText w = wrapped(p, 8);
  ASSERT_EQ(w.lines, (std::vector<std::string>{"int x = ", "12345678", "90;", "short", "", "━━━━━"}));
  EXPECT_EQ(w.origin, (std::vector<int>{0, 0, 0, 1, 2, 3}));
  for (const std::string& line : w.lines) EXPECT_LE(display_width(line), 8) << line;
  EXPECT_EQ(w.mark_begin, 3) << "the marked line starts at its first row";
  EXPECT_EQ(w.mark_end, 4);
  EXPECT_EQ(w.anchor, 5);
  // the keyword keeps its colour; the number cut in two is a number in both rows
  ASSERT_FALSE(w.spans[0].empty());
  EXPECT_EQ(w.spans[0][0].style, Style::Type);
  ASSERT_EQ(w.spans[1].size(), 1u);
  EXPECT_EQ(w.spans[1][0].style, Style::Number);
  EXPECT_EQ(w.spans[1][0].end, 8u);
  ASSERT_FALSE(w.spans[2].empty());
  EXPECT_EQ(w.spans[2][0].style, Style::Number);
  EXPECT_EQ(w.spans[2][0].end, 2u);
  EXPECT_EQ(widest(p), 19);
}

TEST(TuiWrap, AWideCharacterIsNeverCut) {
  const PaneText w = wrapped(pane_text("REPL", "日本語"), 3);
  EXPECT_EQ(w.lines, (std::vector<std::string>{"日", "本", "語"}));
}

}  // namespace
}  // namespace tr::tui
