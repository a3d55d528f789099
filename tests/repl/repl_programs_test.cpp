// The program collection: tests/programs/NN_name.tg are small tinygrad programs rewritten line by line
// in .tg. Each runs through a repl Session; every tensor that a print(...) or numpy() shows is also
// computed by the reference evaluator from the same lazy graph, and the two must agree (exactly for
// ints and bools, to the dtype's tolerance for floats). Every assert in the program must hold. Each
// program runs twice: with the default kernel optimisations and under NOOPT.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/base/context.h"
#include "core/realize/realize.h"
#include "core/reference/reference.h"
#include "repl/host_array.h"
#include "repl/parser.h"
#include "repl/session.h"
#include "repl/source_error.h"
#include "tests/default_opts_testing.h"
#include "tests/random_program.h"
#include "tests/tensor_testing.h"

namespace tr::repl {
namespace {

namespace fs = std::filesystem;

// The .tg files of a folder, by name without the extension, sorted.
std::vector<std::string> tg_names(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".tg") out.push_back(entry.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> program_names() { return tg_names(TINYREPL_PROGRAMS); }

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string read_program(const std::string& name) { return read_file(fs::path(TINYREPL_PROGRAMS) / (name + ".tg")); }

struct Checked {
  int tensors = 0;  // printed tensors compared with the reference
  int prints = 0;
  int asserts = 0;
  std::vector<std::string> failures;
};

// Compares every printed tensor of one print event with the reference evaluator's values.
void check_print(const PrintEvent& e, Checked& c) {
  c.prints++;
  for (size_t k = 0; k < e.values.size(); k++) {
    const PrintedValue& v = e.values[k];
    const Tensor* t = v.value.get_if<Tensor>();
    if (!t) continue;
    if (!v.array) {
      c.failures.push_back(fmt::format("line {}: value {} is a tensor without its printed data", e.span.line, k));
      continue;
    }
    c.tensors++;
    const HostArray& a = *v.array;
    const HostData expected = reference_eval(t->node());
    const std::string where = fmt::format("line {} (value {} of `{}`)", e.span.line, k, e.text.substr(0, 60));
    if (a.dtype != expected.dtype) {
      c.failures.push_back(fmt::format("{}: dtype {} but the reference gives {}", where, name(a.dtype),
                                       name(expected.dtype)));
      continue;
    }
    if (a.shape != t->shape() || static_cast<int64_t>(a.values.size()) != expected.size()) {
      c.failures.push_back(fmt::format("{}: {} values of shape {}, the reference has {}", where, a.values.size(),
                                       shape_str(a.shape), expected.size()));
      continue;
    }
    std::vector<double> got, want;
    for (size_t i = 0; i < a.values.size(); i++) {
      got.push_back(as_double(a.values[i]));
      want.push_back(as_double(expected.get(static_cast<int64_t>(i))));
    }
    const ::testing::AssertionResult r = tr::testing::all_close(got, want, tr::testing::tolerance_for(a.dtype));
    if (!r) c.failures.push_back(fmt::format("{}: {}", where, r.message()));
  }
}

enum class Printed : uint8_t { CheckedWithTheReference, Shown };

Checked run_program_file(const std::string& name, const std::string& source, Printed printed) {
  Checked c;
  Session session([&c, printed](const PrintEvent& e) {
    if (printed == Printed::CheckedWithTheReference) check_print(e, c);
  });
  std::vector<Stmt> stmts;
  try {
    stmts = parse_program(source);
  } catch (const SourceError& e) {
    c.failures.push_back(fmt::format("{}:{}:{}: syntax error: {}", name, e.span().line, e.span().col, e.what()));
    return c;
  }
  for (const Stmt& s : stmts) {
    if (const Meta* m = std::get_if<Meta>(&s.node)) {
      // a meta command shows things, but :online_softmax changes which kernels run (the course's example 20);
      // the caller restores the settings
      if (m->name == "online_softmax" && m->args.size() == 1) settings().online_softmax = m->args[0] == "on";
      continue;
    }
    try {
      const Outcome o = session.execute(s);
      if (const AssertResult* a = std::get_if<AssertResult>(&o)) {
        c.asserts++;
        if (!a->ok) c.failures.push_back(fmt::format("{}:{}: {}", name, a->span.line, a->message));
      }
    } catch (const SourceError& e) {
      c.failures.push_back(fmt::format("{}:{}:{}: {} error: {}", name, e.span().line, e.span().col, e.kind(), e.what()));
      return c;
    } catch (const Error& e) {
      c.failures.push_back(fmt::format("{}:{}: {} error: {}", name, s.span.line, e.kind(), e.what()));
      return c;
    }
  }
  return c;
}

// Runs the program; with the default opts on, each kernel it ran must have default opts that every
// target accepts (tests/default_opts_testing.h).
Checked run_checking_default_opts(const std::string& name, const std::string& source, bool noopt, Printed printed) {
  const Settings saved = settings();
  settings().noopt = noopt;
  const size_t first_run = history().count();
  const Checked c = run_program_file(name, source, printed);
  settings() = saved;
  for (const RunRecord& r : history().since(first_run))
    if (!noopt && !r.is_copy && r.kernel.ast) tr::testing::expect_default_opts_accepted(r.kernel.ast, name + ": " + r.kernel.name);
  std::string report;
  for (const std::string& f : c.failures) report += "\n  " + f;
  EXPECT_TRUE(c.failures.empty()) << name << (noopt ? " (NOOPT)" : "") << ":" << report;
  return c;
}

class ProgramFiles : public ::testing::TestWithParam<std::string> {};

void expect_agrees(const std::string& name, bool noopt) {
  const Checked c = run_checking_default_opts(name, read_program(name), noopt, Printed::CheckedWithTheReference);
  EXPECT_GT(c.tensors, 0) << name << " prints no tensor: it checks nothing against the reference";
}

TEST_P(ProgramFiles, AgreesWithReference) { expect_agrees(GetParam(), false); }
TEST_P(ProgramFiles, AgreesWithReferenceNoopt) { expect_agrees(GetParam(), true); }

INSTANTIATE_TEST_SUITE_P(Collection, ProgramFiles, ::testing::ValuesIn(program_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The example scripts (scripts/examples/*.tg), whose asserts CTest also replays through the program
// (tests/cli.cmake), run here in the process for what only the process sees: the default opts of their
// kernels on every target. Their meta commands only show things and are skipped; what they print is not
// compared with the reference evaluator, which cannot read the buffers their training steps assign.
class ExampleFiles : public ::testing::TestWithParam<std::string> {};

TEST_P(ExampleFiles, ItsDefaultOptsHoldOnEveryTarget) {
  run_checking_default_opts(GetParam(), read_file(fs::path(TINYREPL_EXAMPLES) / (GetParam() + ".tg")), false, Printed::Shown);
}

INSTANTIATE_TEST_SUITE_P(Scripts, ExampleFiles, ::testing::ValuesIn(tg_names(TINYREPL_EXAMPLES)),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// A random program's .tg text (the peer check runs it under tinygrad) computes exactly what the program
// built through the C++ API does: the same engine on the same device, so the same bits.
class RandomProgramText : public ::testing::TestWithParam<int> {};

TEST_P(RandomProgramText, PrintsWhatTheProgramComputes) {
  for (const tr::testing::Values values : {tr::testing::Values::Any, tr::testing::Values::DefinedByTinygrad}) {
    tr::testing::Generator gen(GetParam(), "CPU", values);
    const Tensor x = gen.build();
    SCOPED_TRACE("program:\n" + gen.text());
    std::vector<HostArray> printed;
    Session session([&printed](const PrintEvent& e) {
      for (const PrintedValue& v : e.values)
        if (v.array) printed.push_back(*v.array);
    });
    const SourceRef source = std::make_shared<const SourceText>(SourceText{"random.tg", gen.text()});
    for (const Stmt& s : parse_program(gen.text())) session.execute(s, source);
    ASSERT_EQ(printed.size(), 1u);
    const HostArray want = fetch(x);
    EXPECT_EQ(printed[0].dtype, want.dtype);
    EXPECT_EQ(printed[0].shape, want.shape);
    ASSERT_EQ(printed[0].values.size(), want.values.size());
    for (size_t i = 0; i < want.values.size(); i++) {
      const double a = as_double(printed[0].values[i]), b = as_double(want.values[i]);
      EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << "element " << i << ": " << a << " against " << b;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomProgramText, ::testing::Range(0, 40));

// Whether word occurs in text as a name of its own: not part of a longer name and not after a '.'
// (so "where(" as a function, not the method ".where(", and "int8" not inside "uint8").
bool uses_name(const std::string& text, const std::string& word) {
  auto name_char = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || (!name_char(text[at - 1]) && text[at - 1] != '.');
    const size_t end = at + word.size();
    const bool ends = !name_char(word.back()) || end == text.size() || !name_char(text[end]);
    if (starts && ends) return true;
  }
  return false;
}

// The collection's size and reach: at least 40 programs, and each name of SPEC section 2 (function,
// method, attribute, dtype, keyword argument, operator) appears in at least one of them.
TEST(ProgramCollection, CoversSpecSection2) {
  const std::vector<std::string> names = program_names();
  EXPECT_GE(names.size(), 40u);
  std::string all;
  for (const std::string& n : names) all += read_program(n) + "\n";
  const char* functions[] = {"tensor(",     "zeros(",  "ones(",     "full(",     "arange(",     "linspace(",
                             "eye(",        "rand(",   "randn(",    "zeros_like(", "ones_like(", "full_like(",
                             "where(",      "maximum(", "minimum(", "allclose(", "kernels(",   "realize(",
                             "print(",      "manual_seed("};
  const char* dtypes[] = {"bool", "int8", "uint8", "int32", "int64", "float16", "half", "float32", "float", "float64"};
  const char* members[] = {
      // element-wise
      ".neg(", ".exp(", ".exp2(", ".log(", ".log2(", ".sqrt(", ".rsqrt(", ".sin(", ".cos(", ".tan(", ".relu(",
      ".sigmoid(", ".tanh(", ".gelu(", ".silu(", ".abs(", ".sign(", ".reciprocal(", ".square(", ".floor(",
      ".ceil(", ".trunc(", ".round(", ".add(", ".sub(", ".mul(", ".div(", ".pow(", ".maximum(", ".minimum(",
      ".where(", ".cast(", ".float(", ".half(", ".int(", ".bool(", ".eq(", ".ne(", ".lt(", ".le(", ".gt(", ".ge(",
      // reductions
      ".sum(", ".max(", ".min(", ".mean(", ".var(", ".std(", ".prod(", ".argmax(", ".argmin(", ".softmax(",
      ".log_softmax(", ".logsumexp(",
      // movement
      ".reshape(", ".view(", ".permute(", ".expand(", ".pad(", ".shrink(", ".flip(", ".transpose(", ".T",
      ".flatten(", ".unsqueeze(", ".squeeze(", ".repeat(", ".cat(",
      // linear algebra, control, attributes
      ".dot(", ".matmul(", ".realize(", ".contiguous(", ".to(", ".numpy(", ".item(", ".tolist(", ".shape",
      ".dtype", ".device", ".ndim", ".numel(",
      // keyword arguments
      "dtype=", "seed=", "axis=", "keepdim=", "correction=", "value=", "dim=", "start_dim=", "rtol=", "atol=",
      "step=",
      // indexing, operators, literals
      "None]", "...", "::", ":-1]", " @ ", " // ", " % ", " ** ", " / ", " and ", " or ", "not ", " < ", " <= ",
      " > ", " >= ", " == ", " != ", "-x", "1e-", "True", "False", "\"", "'"};
  for (const char* f : functions) EXPECT_TRUE(uses_name(all, f)) << "no program calls " << f;
  for (const char* d : dtypes) EXPECT_TRUE(uses_name(all, d)) << "no program names the dtype " << d;
  for (const char* m : members) EXPECT_NE(all.find(m), std::string::npos) << "no program uses " << m;
}

// The tensor functions of core/tensor/: layout, logic, index, scan, sort,
// einsum, hyperbolic, copysign, div_rounding, moments, select and own_buffer,
// and the bitwise operators: each used by some program, so the peer check covers it.
TEST(ProgramCollection, CoversTheTensorFunctions) {
  std::string all;
  for (const std::string& n : program_names()) all += read_program(n) + "\n";
  const char* uses[] = {
      "stack(", "einsum(", "meshgrid(", ".split(", ".chunk(", ".unflatten(", ".repeat_interleave(", ".roll(",
      ".diag(", ".tril(", ".triu(", ".unfold(", "mode=\"reflect\"", "mode=\"replicate\"", "mode=\"circular\"",
      ".clip(", ".clamp(", ".masked_fill(", ".isnan(", ".isinf(", ".isfinite(", ".isclose(", ".any(", ".all(",
      ".logical_not(", ".bitwise_and(", ".bitwise_or(", ".bitwise_xor(", ".bitwise_not(", ".lshift(", ".rshift(",
      " & ", " | ", " ^ ", "~", " << ", " >> ", ".gather(", ".scatter(", ".one_hot(", ".cumsum(", ".cumprod(",
      ".cummax(", ".sort(", ".argsort(", ".topk(", "table[tokens]", "[[1, 4]]", "eye(2, 3",
      ".scatter_reduce(", "return_indices=True", ".max_unpool2d(", ".linear(", ".dropout(", "approximate=\"none\"",
      "softmin(dtype=", "sum(dtype=", "prod(dtype=", ".bitcast(", "conv2d(ones(2, 1, 2, 2), stride=2, dtype=",
      ".asinh(", ".acosh(", ".atanh(", ".copysign(", ".mod(", ".cummin(", ".logcumsumexp(", ".diagonal(",
      ".var_mean(", ".std_mean(", ".normalize(", ".masked_select(", ".nonzero(", "size=", "fill_value=",
      "empty(", ".clone(", "kaiming_normal(", "scaled_uniform(", ".bitcast(uint8)", ".bitcast(half)",
      "rounding_mode=\"trunc\"", "rounding_mode=\"floor\"", ".element_size(", ".nbytes(", ".size(",
      ".is_floating_point(", ".short(", ".pad_to(", ".rand_like(", ".randn_like(", ".empty_like(", "randperm(", ".multinomial("};
  for (const char* u : uses) EXPECT_NE(all.find(u), std::string::npos) << "no program uses " << u;
}

}  // namespace
}  // namespace tr::repl
