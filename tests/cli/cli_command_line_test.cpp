// The command line, the settings read from text, the continuation rule and tab completion: the
// program's parts that need no engine run.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/base/error.h"
#include "repl/app/cli.h"
#include "repl/app/completion.h"
#include "repl/app/repl_loop.h"
#include "repl/app/settings_input.h"
#include "repl/builtins.h"
#include "repl/methods.h"
#include "repl/parser.h"
#include "tests/cli_testing.h"

namespace tr::repl {
namespace {

Options parse(std::vector<std::string> args) { return parse_command_line(args); }

std::string usage_error(std::vector<std::string> args) {
  try {
    parse_command_line(args);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "usage");
    return e.what();
  }
  ADD_FAILURE() << "no usage error";
  return "";
}

TEST(CliCommandLine, EachFormOfSpecSectionOne) {
  EXPECT_EQ(parse({}).mode, Mode::Repl);
  EXPECT_EQ(parse({"--plain"}).mode, Mode::Plain);
  EXPECT_EQ(parse({"--help"}).mode, Mode::Help);
  EXPECT_EQ(parse({"--version"}).mode, Mode::Version);

  const Options script = parse({"prog.tg"});
  EXPECT_EQ(script.mode, Mode::Script);
  EXPECT_EQ(script.file, "prog.tg");
  EXPECT_FALSE(script.json);

  const Options run = parse({"run", "--json", "prog.tg"});
  EXPECT_EQ(run.mode, Mode::Script);
  EXPECT_EQ(run.file, "prog.tg");
  EXPECT_TRUE(run.json);

  EXPECT_EQ(parse({"run", "-"}).file, "-");
  EXPECT_EQ(parse({"/dev/stdin"}).file, "/dev/stdin");

  const Options code = parse({"-e", "print(1); print(2)"});
  EXPECT_EQ(code.mode, Mode::Code);
  EXPECT_EQ(code.code, "print(1); print(2)");
  EXPECT_TRUE(parse({"--json", "-e", "1"}).json);
}

TEST(CliCommandLine, OptionsGoWithEveryForm) {
  const Options o = parse({"--device", "cpu", "--debug", "3", "--noopt", "--beam", "2", "--render", "c,opencl",
                           "--repeat", "5", "x.tg"});
  EXPECT_EQ(o.device, "cpu");
  EXPECT_EQ(o.debug, 3);
  EXPECT_TRUE(o.noopt);
  EXPECT_EQ(o.beam, 2);
  EXPECT_EQ(o.render, "c,opencl");
  EXPECT_EQ(o.repeat, 5);
  EXPECT_EQ(o.mode, Mode::Script);

  const Options eq = parse({"--plain", "--debug=4", "--device=LLVM", "--render=cuda"});
  EXPECT_EQ(eq.mode, Mode::Plain);
  EXPECT_EQ(eq.debug, 4);
  EXPECT_EQ(eq.device, "LLVM");
  EXPECT_EQ(eq.render, "cuda");
  // options may follow the script, as they may precede it
  EXPECT_EQ(parse({"run", "x.tg", "--debug", "2"}).debug, 2);
}

TEST(CliCommandLine, MistakesAreUsageErrors) {
  EXPECT_EQ(usage_error({"--bogus"}), "unknown option '--bogus'");
  EXPECT_EQ(usage_error({"--debug", "two"}), "--debug expects a whole number, not 'two'");
  EXPECT_EQ(usage_error({"--debug"}), "--debug expects a value");
  EXPECT_EQ(usage_error({"-e"}), "-e expects a value");
  EXPECT_EQ(usage_error({"run"}), "'run' expects a script: tinyrepl run FILE.tg");
  EXPECT_EQ(usage_error({"--json"}), "--json needs a script or -e CODE: tinyrepl run --json FILE.tg");
  EXPECT_EQ(usage_error({"a.tg", "b.tg"}), "'b.tg' cannot be combined with the script 'a.tg'");
  EXPECT_EQ(usage_error({"-e", "1", "a.tg"}), "'a.tg' cannot be combined with -e");
  EXPECT_EQ(usage_error({"--plain", "a.tg"}), "'a.tg' cannot be combined with --plain");
}

TEST(CliCommandLine, UsageNamesEveryOptionAndTheExitStatuses) {
  const std::string u = usage_text();
  for (const char* word : {"--plain", "run", "--json", "-e", "--device", "--debug", "--noopt", "--beam", "--render",
                           "--repeat", "130", "DEBUG", "NOOPT", "BEAM", "DEV", "exit status", "TUI"})
    EXPECT_CONTAINS(u, word);
  EXPECT_EQ(version_text(), std::string("tinyrepl ") + TINYREPL_VERSION + "\n");
}

TEST(CliSettingsInput, CheckedValuesAndTheirErrors) {
  EXPECT_EQ(bounded_int(" 3 ", 0, 5, "level"), 3);
  EXPECT_THROW(bounded_int("6", 0, 5, "level"), Error);
  EXPECT_THROW(bounded_int("-1", 0, 5, "level"), Error);
  EXPECT_THROW(bounded_int("2x", 0, 5, "level"), Error);
  EXPECT_THROW(bounded_int("", 0, 5, "level"), Error);
  EXPECT_TRUE(switch_value("ON", "x"));
  EXPECT_TRUE(switch_value("1", "x"));
  EXPECT_FALSE(switch_value("off", "x"));
  EXPECT_THROW(switch_value("maybe", "x"), Error);
  EXPECT_EQ(render_list("C, OpenCL,,cuda,c"), (std::vector<std::string>{"c", "opencl", "cuda"}));
  try {
    render_list("c,fortran");
    ADD_FAILURE() << "fortran is no backend";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "value");
    EXPECT_CONTAINS(std::string(e.what()), "unknown backend 'fortran' (backends: c, ");
  }
  EXPECT_EQ(usable_device("cpu"), "CPU");
  try {
    usable_device("tpu");
    ADD_FAILURE() << "tpu is no device";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), "device");
    EXPECT_CONTAINS(std::string(e.what()), "unknown device 'tpu' (devices: CPU");
  }
}

TEST(CliContinuation, OpenBracketsAndBackslashesAskForAnotherLine) {
  EXPECT_FALSE(input_continues("x = 1"));
  EXPECT_TRUE(input_continues("x = tensor([1,"));
  EXPECT_TRUE(input_continues("x = tensor([[1, 2],\n [3, 4]]"));
  EXPECT_FALSE(input_continues("x = tensor([[1, 2],\n [3, 4]])"));
  EXPECT_TRUE(input_continues("x = 1 + \\"));
  EXPECT_FALSE(input_continues("x = 1  # ends with \\"));
  EXPECT_FALSE(input_continues("x = )"));  // an error to show now, not a reason to wait
  // the TUI and the plain REPL end an input at a wrong closing bracket or a line that cannot go on
  EXPECT_FALSE(input_continues("print((1]"));
  EXPECT_FALSE(input_continues("x = f(1, 2\ny = 3"));
  EXPECT_TRUE(input_continues("x = f(1, 2,\n  3"));
  EXPECT_FALSE(input_continues(":kernels ("));
  EXPECT_TRUE(input_continues("for i in range(3):"));
  EXPECT_TRUE(input_continues("for i in range(3):\n  print(i)"));
  EXPECT_FALSE(input_continues("for i in range(3):\n  print(i)\n"));
}

class CliCompletion : public ::testing::Test {
 protected:
  CliCompletion() {
    for (const Stmt& s : parse_program("alpha = arange(3); alpine = 2; beta = ones(2)")) session.execute(s);
  }
  Completion at_end(const std::string& line) { return complete(line, line.size(), session); }
  Session session{[](const PrintEvent&) {}};
};

TEST_F(CliCompletion, NamesOfVariablesFunctionsAndDtypes) {
  EXPECT_EQ(at_end("alp").candidates, (std::vector<std::string>{"alpha", "alpine"}));
  const Completion c = at_end("y = maximum(alpha, ze");
  EXPECT_EQ(c.start, 19u);
  EXPECT_EQ(c.candidates, (std::vector<std::string>{"zeros", "zeros_like"}));
  EXPECT_EQ(at_end("x.cast(float1").candidates, (std::vector<std::string>{"float16"}));
  EXPECT_EQ(at_end("Tr").candidates, (std::vector<std::string>{"True"}));
  EXPECT_TRUE(at_end("qqq").candidates.empty());
}

TEST_F(CliCompletion, MethodsAfterADotAndDtypesAfterDtypes) {
  const Completion c = at_end("print(alpha.su");
  EXPECT_EQ(c.start, 6u);
  EXPECT_EQ(c.candidates, (std::vector<std::string>{"alpha.sub", "alpha.sum"}));
  EXPECT_EQ(at_end("alpha.sum().resh").candidates, (std::vector<std::string>{".reshape"}));
  EXPECT_EQ(at_end("dtypes.floa").candidates,
            (std::vector<std::string>{"dtypes.float", "dtypes.float16", "dtypes.float32", "dtypes.float64"}));
  EXPECT_EQ(at_end("Tensor.ara").candidates, (std::vector<std::string>{"Tensor.arange"}));
}

TEST_F(CliCompletion, HelpNamesAfterAQuestionMarkAndNnsFunctionsAfterNn) {
  const Completion q = at_end("?softm");
  EXPECT_EQ(q.start, 1u);
  EXPECT_EQ(q.candidates, (std::vector<std::string>{"softmax", "softmin"}));
  EXPECT_EQ(at_end("?alpha.sof").candidates, (std::vector<std::string>{"alpha.softmax", "alpha.softmin", "alpha.softplus", "alpha.softsign"}));
  EXPECT_EQ(at_end("hel").candidates, (std::vector<std::string>{"help"}));
  EXPECT_EQ(at_end("opt = nn.optim.Ad").candidates, (std::vector<std::string>{"nn.optim.Adam", "nn.optim.AdamW"}));
}

TEST_F(CliCompletion, MetaCommandsAndTheirArguments) {
  EXPECT_EQ(at_end(":k").candidates, (std::vector<std::string>{":kernels"}));
  EXPECT_EQ(at_end(":re").candidates, (std::vector<std::string>{":render", ":repeat", ":reset"}));
  EXPECT_EQ(at_end(":src 0 op").candidates, (std::vector<std::string>{"opencl"}));
  EXPECT_EQ(at_end(":render c,cu").candidates, (std::vector<std::string>{"cuda"}));
  EXPECT_EQ(at_end(":device cp").candidates.size(), 0u);  // device names are upper case
  EXPECT_EQ(at_end(":device CP").candidates, (std::vector<std::string>{"CPU"}));
  EXPECT_EQ(at_end(":noopt o").candidates, (std::vector<std::string>{"off", "on"}));
  EXPECT_EQ(at_end(":opt 0 UP").candidates, (std::vector<std::string>{"UPCAST"}));
  EXPECT_EQ(at_end(":help softm").candidates, (std::vector<std::string>{"softmax", "softmin"}));
  EXPECT_EQ(at_end(":kernels be").candidates, (std::vector<std::string>{"beta"}));
  const Completion file = at_end(":run scr");
  EXPECT_TRUE(file.files);
  EXPECT_TRUE(file.candidates.empty());
  EXPECT_FALSE(at_end(":src 0 c").files);
}

}  // namespace
}  // namespace tr::repl
