// The help table holds exactly the names the REPL binds; each entry's example runs in a fresh session with
// every assert holding; help(), x.method? and ?name print an entry, or fail at the name with the nearest one.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "repl/builtins.h"
#include "repl/convert.h"
#include "repl/help_notes.h"
#include "repl/help_table.h"
#include "repl/help_text.h"
#include "repl/methods.h"
#include "repl/nn.h"
#include "tests/help_testing.h"
#include "tests/session_testing.h"

namespace tr::repl {
namespace {

std::set<std::string> set_of(const std::vector<std::string>& v) { return {v.begin(), v.end()}; }

bool has(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

// The entry as help() prints it: print adds the line's end.
std::string printed_entry(HelpKind kind, std::string_view name) {
  std::string text = entry_text(kind, *find_help(kind, name));
  text.pop_back();
  return text;
}

TEST(HelpTable, NamesEveryFunctionTheReplBindsAndNoOther) {
  std::set<std::string> bound = set_of(builtin_names());
  bound.insert("help");  // the evaluator's own form: its argument is named, not evaluated
  EXPECT_EQ(set_of(help_names(HelpKind::Function)), bound);
  EXPECT_EQ(set_of(help_names(HelpKind::NnFunction)), set_of(nn_function_names()));
}

TEST(HelpTable, NamesEveryTensorMethodAndAttributeAndNoOther) {
  std::set<std::string> methods, attributes;
  for (const std::string& m : member_names()) (is_attribute(m) ? attributes : methods).insert(m);
  EXPECT_EQ(set_of(help_names(HelpKind::Method)), methods);
  EXPECT_EQ(set_of(help_names(HelpKind::Attribute)), attributes);
}

TEST(HelpTable, FindsEveryDtypeByEverySpelling) {
  EXPECT_EQ(help_names(HelpKind::DType).size(), static_cast<size_t>(kNumDTypes));
  for (const std::string& n : dtype_names()) EXPECT_NE(find_help(HelpKind::DType, n), nullptr) << n;
  EXPECT_EQ(find_help(HelpKind::DType, "half")->name, "float16");
  EXPECT_TRUE(has(help_text("half"), "dtype float16\n  also written dtypes.float16, half\n"));
}

TEST(HelpTable, EveryEntryHasOneNameASignatureAParagraphAndAnExample) {
  std::set<std::pair<HelpKind, std::string_view>> seen;
  for (const HelpGroup& g : help_groups())
    for (const HelpEntry& e : g.entries) {
      EXPECT_TRUE(seen.insert({g.kind, e.name}).second) << "two entries named " << e.name;
      EXPECT_TRUE(has(e.signature, e.name.substr(e.name.rfind('.') + 1))) << e.name << ": " << e.signature;
      EXPECT_TRUE(e.about.ends_with('.')) << e.name;
      EXPECT_FALSE(e.example.empty()) << e.name;
    }
}

// Each example runs statement by statement, as a script would; an assert that fails, an error or a meta
// command (whose examples run in the program, tests/cli/cli_help_test.cpp) fails the test.
class HelpExample : public testing::SessionTest, public ::testing::WithParamInterface<testing::HelpCase> {};

TEST_P(HelpExample, RunsInAFreshSessionWithEveryAssertHolding) {
  const std::string example(GetParam().entry->example);
  const SourceRef source = std::make_shared<const SourceText>(SourceText{"example", example});
  try {
    for (const Stmt& s : parse_program(example)) {
      const Outcome o = session.execute(s, source);
      if (const AssertResult* a = std::get_if<AssertResult>(&o)) {
        EXPECT_TRUE(a->ok) << a->message;
      }
      EXPECT_FALSE(std::holds_alternative<Meta>(o)) << "a meta command in the example of " << GetParam().entry->name;
    }
  } catch (const SourceError& e) {
    ADD_FAILURE() << "line " << e.span().line << ":" << e.span().col << ": " << e.what() << "\nin:\n" << example;
  }
  EXPECT_FALSE(printed.empty()) << "an example shows something";
}

INSTANTIATE_TEST_SUITE_P(EveryEntry, HelpExample, ::testing::ValuesIn(testing::help_cases(false)),
                         [](const auto& info) { return testing::help_case_name(info.param); });

using HelpForms = testing::SessionTest;

TEST_F(HelpForms, AMethodOfAnyTensorExpressionShowsItsEntry) {
  run("x = tensor([1., 2.])\nx.softmax?\nhelp(x.softmax)\n(x + 1).softmax?\n?x.softmax\nhelp(Tensor.softmax)");
  ASSERT_EQ(printed.size(), 5u);
  for (const std::string& p : printed) EXPECT_EQ(p, printed_entry(HelpKind::Method, "softmax"));
  EXPECT_TRUE(has(printed[0], "method x.softmax(axis=-1, dtype=None)\n"));
  EXPECT_TRUE(has(printed[0], "  example:\n    x = tensor("));
}

TEST_F(HelpForms, ANameOrAStringShowsEveryEntryOfThatName) {
  run("?where\nhelp(where)\nhelp('where')\nwhere?");
  ASSERT_EQ(printed.size(), 4u);
  for (const std::string& p : printed) {
    EXPECT_TRUE(has(p, "function where(condition, x, y)")) << p;
    EXPECT_TRUE(has(p, "method cond.where(x, y)")) << p;
  }
}

TEST_F(HelpForms, TopicsNamespacesAndTheirMembers) {
  run("help('notes')\ndtypes.half?\nTensor.zeros?\nnn.Linear?\nhelp(nn.optim)\nnn?\nhelp()");
  ASSERT_EQ(printed.size(), 7u);
  EXPECT_TRUE(has(printed[0], "UOps.PHI\n    -> ASSIGN"));
  EXPECT_EQ(printed[1], printed_entry(HelpKind::DType, "float16"));
  EXPECT_EQ(printed[2], printed_entry(HelpKind::Function, "zeros"));
  EXPECT_EQ(printed[3], printed_entry(HelpKind::NnFunction, "nn.Linear"));
  EXPECT_TRUE(has(printed[4], "function nn.optim.SGD(") && has(printed[4], "function nn.optim.AdamW(")) << printed[4];
  EXPECT_TRUE(has(printed[5], "nn.Linear(in_features, out_features, bias=True)  A fully connected layer"));
  EXPECT_TRUE(has(printed[6], "Topics: :help commands"));
}

TEST_F(HelpForms, AVariableShowsWhatItHolds) {
  run("x = arange(3)\nx?\ndef f(a, b=2, *rest):\n  return a\nf?\nn = 3\nn?\nt = float32\nt?");
  ASSERT_EQ(printed.size(), 4u);
  EXPECT_TRUE(has(printed[0], "x is <Tensor (3,) dtypes.int on CPU, lazy>\nfunction Tensor(")) << printed[0];
  EXPECT_EQ(printed[1], "f is a function defined in this session:\n  def f(a, b=2, *rest)");
  EXPECT_TRUE(has(printed[2], "n is an int: 3\nfunction int(x=0)")) << printed[2];
  EXPECT_EQ(printed[3], printed_entry(HelpKind::DType, "float32"));
}

TEST_F(HelpForms, AnObjectsMembersHaveEntriesOrPointAtWhatMadeIt) {
  run("opt = nn.optim.SGD([ones(1)])\nopt.step?\nopt.lr?\nlayer = nn.Linear(2, 2)\nlayer.weight?\n"
      "d = {'a': 1}\nd.get?\nv = Variable('n', 1, 4)\nv.bind?");
  ASSERT_EQ(printed.size(), 5u);
  EXPECT_EQ(printed[0], printed_entry(HelpKind::Member, "Optimizer.step"));
  EXPECT_EQ(printed[1], printed_entry(HelpKind::Member, "Optimizer.lr"));
  EXPECT_TRUE(has(printed[2], "'weight' of a Linear, which nn.Linear tells:\nfunction nn.Linear(")) << printed[2];
  EXPECT_EQ(printed[3], printed_entry(HelpKind::Member, "dict.get"));
  EXPECT_EQ(printed[4], printed_entry(HelpKind::Member, "Variable.bind"));
}

TEST_F(HelpForms, TheQuestionMarkAsksForHelpWhateverAVariableNamedHelpHolds) {
  run("help = 3\nx = ones(1)\nx.sum?");
  ASSERT_EQ(printed.size(), 1u);
  EXPECT_EQ(printed[0], printed_entry(HelpKind::Method, "sum"));
  EXPECT_EQ(std::string(error("help(x.sum)").what()), "'int' object is not callable");
}

TEST_F(HelpForms, HelpRunsNothingItNames) {
  run("x = arange(4) + 1\nx.sum?");
  EXPECT_EQ(repr("kernels(x)"), "1");  // x is still lazy
}

TEST_F(HelpForms, AnUnknownNameIsAnErrorAtItWithTheNearestName) {
  const SourceError method = error("x = ones(1)\nx.sotfmax?");
  EXPECT_EQ(std::string(method.what()), "'Tensor' object has no attribute 'sotfmax'; did you mean 'softmax'?");
  EXPECT_EQ(method.kind(), "name");
  EXPECT_EQ(method.span(), (Span{2, 3, 7}));
  const SourceError name = error("?sotfmax");
  EXPECT_EQ(std::string(name.what()), "no help on 'sotfmax'; did you mean 'softmax'?");
  EXPECT_EQ(name.span(), (Span{1, 2, 7}));
  EXPECT_EQ(error("help('sotfmax')").span(), (Span{1, 6, 9}));
  EXPECT_EQ(std::string(error("dtypes.flaot32?").what()), "dtypes has no dtype 'flaot32'; did you mean 'float32'?");
  EXPECT_EQ(std::string(error("nn.Linaer?").what()), "nn has no 'Linaer'; did you mean 'nn.Linear'?");
  EXPECT_EQ(std::string(error("help(1, 2)").what()), "help() takes at most 1 argument (2 given)");
  EXPECT_EQ(std::string(error("y = help").what()), "'help' is a function; call it: help(x.sum), or write x.sum?");
}

TEST(HelpText, ANameThatIsACommandAFunctionAndAMethodShowsAll) {
  const std::string kernels = help_text("kernels");
  EXPECT_TRUE(has(kernels, "command :kernels [x]\n"));
  EXPECT_TRUE(has(kernels, "function kernels(x, ...)\n"));
  EXPECT_TRUE(has(help_text(":kernels"), "command :kernels [x]\n"));
  EXPECT_FALSE(has(help_text(":kernels"), "function kernels"));
  EXPECT_TRUE(has(help_text("step"), "method opt.step()"));  // a member by its last part
  EXPECT_TRUE(has(help_text("PADTO"), "PADTO   global or reduce dim -> padded, masked"));
  for (const char* topic : {"commands", "functions", "methods", "nn", "dtypes", "opts", "keys", "debug", "json", "notes"})
    EXPECT_FALSE(help_text(topic).empty()) << topic;
  try {
    help_text("sume");
    ADD_FAILURE() << "no help on sume";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "no help on 'sume'; did you mean 'sum'?");
  }
}

TEST(HelpText, TheListingsGiveEachEntrysSignatureAndFirstSentence) {
  EXPECT_TRUE(has(help_text("methods"), "    x.softmax(axis=-1, dtype=None)  exp(x - max) / sum(exp(x - max)) along axis: "));
  EXPECT_TRUE(has(help_text("commands"), "  :render [LIST|none]      The backends whose source :src, :step and DEBUG 4 show; none: "
                                         "the device's own.\n"));
  EXPECT_EQ(first_sentence("Comma-separated, e.g. c,metal. Then more."), "Comma-separated, e.g. c,metal.");
}

TEST(HelpNotes, EverySpellingOfATermLooksUpItsRow) {
  for (const std::string& k : note_keys()) EXPECT_TRUE(has(help_text(k), "the notes' word, in ")) << k;
  EXPECT_TRUE(has(help_text("PHI"), "  UOps.PHI\n    -> ASSIGN\n"));
}

TEST(HelpNotes, GivesTinyreplsWordForTheNotesTerms) {
  const std::string notes = notes_text();
  for (const char* row : {"  UOps.PHI\n    -> ASSIGN\n", "  NPY (METAL <- NPY)\n    -> HOST (CPU <- HOST)\n",
                          "  CLANG (CLANG <- METAL)\n    -> CPU, and HOST for reading back\n",
                          "  PtrDType(dtypes.int), ptr.dtypes.int\n    -> ptr.int\n", "  UOps.RANGE, UOps.LOOP\n    -> RANGE\n",
                          "  LazyOp(MetaOps.KERNEL, arg=None, src=(...))\n    -> the kernel's AST tree (:ast K, DEBUG 3); this form: :ast K lazyop\n",
                          "  gid, lid (uint3 gid [[threadgroup_position_in_grid]])\n", "  TinyJit, @TinyJit\n    -> @jit"})
    EXPECT_TRUE(has(notes, row)) << row;
}

}  // namespace
}  // namespace tr::repl
