// The line diff of :diff (viz/line_diff.h): `diff -u`'s hunks, with the counts of removed and added lines.
#include <gtest/gtest.h>

#include "viz/line_diff.h"

namespace tr {
namespace {

TEST(LineDiff, AChangedLineIsARemovalAndAnAdditionWithThreeLinesOfContext) {
  const LineDiff d =
      unified_diff("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n", "before", "after");
  EXPECT_EQ(d.text,
            "--- before\n+++ after\n"
            "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
  EXPECT_EQ(d.removed, 1);
  EXPECT_EQ(d.added, 1);
}

TEST(LineDiff, ChangesFarApartAreHunksOfTheirOwn) {
  const LineDiff d = unified_diff("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n", "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\nm\n", "x", "y");
  EXPECT_NE(d.text.find("@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n"), std::string::npos) << d.text;
  EXPECT_NE(d.text.find("@@ -9,5 +9,5 @@\n i\n j\n k\n-l\n+L\n m\n"), std::string::npos) << d.text;
}

TEST(LineDiff, LinesOnlyAddedOrOnlyRemoved) {
  const LineDiff added = unified_diff("x\ny\n", "w\nx\ny\n", "a", "b");
  EXPECT_EQ(added.text, "--- a\n+++ b\n@@ -1,2 +1,3 @@\n+w\n x\n y\n");
  EXPECT_EQ(added.removed, 0);
  EXPECT_EQ(added.added, 1);
  const LineDiff removed = unified_diff("x\ny\nz\n", "x\ny\n", "a", "b");
  EXPECT_EQ(removed.removed, 1);
  EXPECT_EQ(removed.added, 0);
  EXPECT_NE(removed.text.find("\n-z\n"), std::string::npos);
}

TEST(LineDiff, EqualTextsHaveNoDiff) {
  const LineDiff d = unified_diff("same\ntext\n", "same\ntext\n", "a", "b");
  EXPECT_EQ(d.text, "");
  EXPECT_EQ(d.removed + d.added, 0);
}

TEST(LineDiff, ALastLineWithoutANewlineIsALine) {
  const LineDiff d = unified_diff("a\nb", "a\nc", "x", "y");
  EXPECT_EQ(d.text, "--- x\n+++ y\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
}

}  // namespace
}  // namespace tr
