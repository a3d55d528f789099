// The input line: readline driven by bytes, with the host's completion, history and end of input.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include "viz/tui/input_line.h"

namespace tr::tui {
namespace {

// Completes "x.su" as the plain REPL does: the word starts at the name, '.' belongs to it.
TuiCompletion methods(const std::string& line, size_t cursor) {
  const size_t start = line.find_last_of(" (", cursor == 0 ? 0 : cursor - 1);
  TuiCompletion c{.start = start == std::string::npos ? 0 : start + 1};
  for (const char* m : {"x.sum", "x.sub", "x.sqrt"})
    if (std::string_view(m).starts_with(std::string_view(line).substr(c.start, cursor - c.start)))
      c.candidates.push_back(m);
  return c;
}

// one a process: the suite's shards run side by side
std::string history_path() { return ::testing::TempDir() + "tui_input_history_" + std::to_string(getpid()); }

TEST(TuiInput, AcceptedLinesComeOutWhole) {
  InputLine input("", methods);
  input.feed("a = 1\rb");
  EXPECT_EQ(input.take_line(), "a = 1");
  EXPECT_EQ(input.take_line(), std::nullopt);
  EXPECT_EQ(input.text(), "b");
  EXPECT_EQ(input.cursor(), 1u);
  input.discard();
  EXPECT_EQ(input.text(), "");
}

TEST(TuiInput, TabCompletesWithTheHostsCandidates) {
  InputLine input("", methods);
  input.feed("print(x.sq\t");
  EXPECT_EQ(input.text(), "print(x.sqrt ");
  input.discard();
  input.feed("x.su\t\t");
  EXPECT_EQ(input.text(), "x.su") << "two candidates: nothing to add";
  EXPECT_EQ(input.take_matches(), (std::vector<std::string>{"x.sub", "x.sum"}));
}

TEST(TuiInput, CandidatesFitReadlinesWordWhereverTheHostsStarts) {
  {
    InputLine after_dot("", [](const std::string& line, size_t cursor) {
      return TuiCompletion{.start = line.rfind('.', cursor) + 1, .candidates = {"sqrt"}};
    });
    after_dot.feed("print(x.sq\t");
    EXPECT_EQ(after_dot.text(), "print(x.sqrt ");
  }
  InputLine whole("", [](const std::string&, size_t) {
    return TuiCompletion{.start = 0, .candidates = {"print(x.sqrt"}};
  });
  whole.feed("print(x.sq\t");
  EXPECT_EQ(whole.text(), "print(x.sqrt ");
}

TEST(TuiInput, EditingKeysAndHistory) {
  std::remove(history_path().c_str());
  {
    InputLine input(history_path(), methods);
    input.feed("first\rsecond\r");
    while (const std::optional<std::string> line = input.take_line()) input.remember(*line);  // as the App does
    input.feed("\033[A\033[A");
    EXPECT_EQ(input.text(), "first");
    input.feed("\033[H>\033[F<");
    EXPECT_EQ(input.text(), ">first<");
    input.feed("\004");  // Ctrl-D on a line with text deletes, it does not end the input
    EXPECT_FALSE(input.at_eof());
    input.discard();
    input.feed("\004");
    EXPECT_TRUE(input.at_eof());
  }
  // readline writes each entry's time stamp on a '#' line before it (that keeps a statement of several
  // lines one entry); the entries themselves are the lines typed
  std::ifstream saved(history_path());
  std::string entries;
  for (std::string line; std::getline(saved, line);)
    if (!line.starts_with('#')) entries += line + "\n";
  EXPECT_EQ(entries, "first\nsecond\n");
  InputLine again(history_path(), methods);
  again.feed("\033[A");
  EXPECT_EQ(again.text(), "second") << "the next session starts from the saved history";
}

// The lines of a statement that continued (an open bracket) are one entry, saved and recalled whole.
TEST(TuiInput, AStatementOfSeveralLinesIsOneHistoryEntry) {
  std::remove(history_path().c_str());
  {
    InputLine input(history_path(), methods);
    input.feed("y = (1 +\r2)\r");
    std::vector<std::string> lines;
    while (const std::optional<std::string> line = input.take_line()) lines.push_back(*line);
    ASSERT_EQ(lines.size(), 2u);
    input.remember(lines[0] + "\n" + lines[1] + "\n");
    input.feed("\033[A");
    EXPECT_EQ(input.text(), "y = (1 +\n2)");
  }
  // the last entry: its time stamp, then its two lines
  std::ifstream saved(history_path());
  const std::string text((std::istreambuf_iterator<char>(saved)), std::istreambuf_iterator<char>());
  const size_t stamp = text.rfind('#');
  ASSERT_NE(stamp, std::string::npos) << text;
  EXPECT_EQ(text.substr(text.find('\n', stamp) + 1), "y = (1 +\n2)\n") << "one entry, not two";
  InputLine again(history_path(), methods);
  again.feed("\033[A");
  EXPECT_EQ(again.text(), "y = (1 +\n2)") << "the next session reads it back as one entry";
}

}  // namespace
}  // namespace tr::tui
