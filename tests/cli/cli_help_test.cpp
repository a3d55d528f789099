// :help and IPython's help forms in the program: every meta command has an entry and every command entry a
// command, each command's example runs in a session of its own, and the notes' first var kernel is what
// the help says it is.
#include <filesystem>
#include <set>
#include <string>

#include "repl/app/meta.h"
#include "repl/help_table.h"
#include "tests/cli_testing.h"
#include "tests/help_testing.h"

namespace tr::repl {
namespace {

using testing::run_here;

TEST(CliHelp, EveryMetaCommandHasAnEntryAndEveryCommandEntryACommand) {
  std::set<std::string> commands;
  for (const MetaCommand& c : meta_commands()) commands.emplace(c.name);
  const std::vector<std::string> entries = help_names(HelpKind::Command);
  EXPECT_EQ(std::set<std::string>(entries.begin(), entries.end()), commands);
}

// In a folder of its own, since :save, :run and :trace write and read files there.
class CliHelpExample : public ::testing::TestWithParam<testing::HelpCase> {
 protected:
  CliHelpExample() : before_(std::filesystem::current_path()) { std::filesystem::current_path(dir_.path()); }
  ~CliHelpExample() override { std::filesystem::current_path(before_); }

 private:
  testing::TempDir dir_;
  std::filesystem::path before_;
};

TEST_P(CliHelpExample, RunsInASessionOfItsOwnWithoutError) {
  const testing::Result r = run_here({"-e", std::string(GetParam().entry->example)});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out, "");
}

INSTANTIATE_TEST_SUITE_P(EveryCommand, CliHelpExample, ::testing::ValuesIn(testing::help_cases(true)),
                         [](const auto& info) { return testing::help_case_name(info.param); });

TEST(CliHelp, TheQuestionMarkFormsAndHelpAfterTheCommand) {
  const testing::Result r =
      run_here({"-e", "x = tensor([1., 2.])\nx.softmax?\n:help x.sum\n:help (x + 1).max\n:help notes\n?PHI"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "method x.softmax(axis=-1, dtype=None)\n");
  EXPECT_CONTAINS(r.out, "method x.sum(axis=None, keepdim=False, dtype=None)\n");
  EXPECT_CONTAINS(r.out, "method x.max(axis=None, keepdim=False)\n");
  EXPECT_CONTAINS(r.out, "  UOps.PHI\n    -> ASSIGN\n");
}

TEST(CliHelp, AnUnknownNameFailsAtItWithACaret) {
  const testing::Result r = run_here({"-e", "x = ones(2)\nx.sotfmax?"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "-e:2:3: error: 'Tensor' object has no attribute 'sotfmax'; did you mean 'softmax'?\n"
                   "x.sotfmax?\n  ^~~~~~~\n");
  const testing::Result c = run_here({"-e", ":help sotfmax"});
  EXPECT_EQ(c.err, "-e:1:7: error: no help on 'sotfmax'; did you mean 'softmax'?\n:help sotfmax\n      ^~~~~~~\n");
  const testing::Result m = run_here({"-e", "x = ones(2)\n:help x.sotfmax"});
  EXPECT_CONTAINS(m.err, "-e:2:9: error: 'Tensor' object has no attribute 'sotfmax'; did you mean 'softmax'?\n");
}

TEST(CliHelp, HelpPrintsAsAPrintEventInJson) {
  const testing::Result r = run_here({"--json", "-e", "ones(2).sum?"});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::vector<nlohmann::json> events = testing::json_lines(r.out);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events[0]["event"], "print");
  EXPECT_EQ(events[0]["value"], events[0]["text"]);
  EXPECT_CONTAINS(events[0]["text"].get<std::string>(), "method x.sum(");
}

// The notes' first var kernel (seed 003): the int sum, then times 0.25 as a float, stored.
TEST(CliHelp, TheContiguousMeanIsTheNotesFirstKernel) {
  // the binary, whose kernel names start afresh (a process numbers a name's repeats: r_4n1)
  const testing::Result r = testing::run_binary(
      {"--noopt", "--debug", "4", "-e", "a = tensor([1, 2, 3, 4])\nm = a.mean().contiguous()\nprint(((a - m) ** 2).sum() / 3)"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "void r_4(float* restrict data0, const int* restrict data1, int core_id) {\n"
                         "  int acc0 = 0;\n"
                         "  for (int ridx0 = 0; ridx0 < 4; ridx0++) {\n"
                         "    int val0 = data1[ridx0];\n"
                         "    acc0 = (acc0+val0);\n"
                         "  }\n"
                         "  data0[0] = (((float)acc0)*0.25f);\n"
                         "}\n");
  EXPECT_CONTAINS(r.out, "void r_4n1(");
}

}  // namespace
}  // namespace tr::repl
