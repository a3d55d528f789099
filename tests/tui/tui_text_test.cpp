// Text cut to terminal columns: nothing a printer or a person types may move the cursor.
#include <gtest/gtest.h>

#include "viz/tui/text.h"

namespace tr::tui {
namespace {

TEST(TuiText, PrintableExpandsTabsAndHidesControls) {
  EXPECT_EQ(printable("a\tb"), "a       b");
  EXPECT_EQ(printable("\033[31mred"), "?[31mred");
  EXPECT_EQ(printable("bad \xff byte"), "bad ? byte");
  EXPECT_EQ(printable("ok ┣━━ █"), "ok ┣━━ █");
  EXPECT_EQ(printable("\xe2\x94"), "??") << "a cut character";
}

TEST(TuiText, WidthCountsColumnsNotBytes) {
  EXPECT_EQ(display_width("┗━┳ LOAD"), 8);
  EXPECT_EQ(display_width("日本"), 4);
  EXPECT_EQ(display_width("e\xcc\x81"), 1) << "a combining accent takes no column";
}

TEST(TuiText, FitStopsBeforeACharacterThatWouldOverflow) {
  EXPECT_EQ(fit("abcdef", 3), 3u);
  EXPECT_EQ(fit("a日本", 2), 1u) << "the wide character needs two columns";
  EXPECT_EQ(fit("━━━", 2), 6u);
  EXPECT_EQ(fit("abc", 0), 0u);
  EXPECT_EQ(skip_columns("日本x", 2), 3u);
}

TEST(TuiText, Utf8EncodesTypedCharacters) {
  EXPECT_EQ(utf8(U'a'), "a");
  EXPECT_EQ(utf8(U'é'), "\xc3\xa9");
  EXPECT_EQ(utf8(U'━'), "━");
  EXPECT_EQ(utf8(U'😀'), "\xf0\x9f\x98\x80");
}

TEST(TuiText, SplitLinesDropsTheFinalNewlineOnly) {
  EXPECT_EQ(split_lines("a\n\nb\n"), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_TRUE(split_lines("").empty());
}

TEST(TuiText, WrapKeepsTheIndentAndIndentsWhatFollows) {
  EXPECT_EQ(wrap("  why: a b c d", 9, 6), (std::vector<std::string>{"  why: a", "      b c", "      d"}));
  EXPECT_EQ(wrap("abcdefghij", 4), (std::vector<std::string>{"abcd"})) << "a word longer than a line is cut";
  EXPECT_EQ(wrap_lines("short\nlonger line\n", 6, 1), "short\nlonger\n line\n");
}

}  // namespace
}  // namespace tr::tui
