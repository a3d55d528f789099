// The language's blocks end to end: functions, loops, branches, unpacking, scoping, decorators, and
// errors inside functions with their call chain.
#include <gtest/gtest.h>
#include <pthread.h>

#include <string>
#include <vector>

#include "repl/call_stack.h"
#include "tests/session_testing.h"

namespace tr::repl {
namespace {

using Blocks = testing::SessionTest;

TEST_F(Blocks, FunctionsWithDefaultsKeywordsAndReturn) {
  run("def f(a, b=2, c=10):\n  return a * b + c\n");
  EXPECT_EQ(repr("f(1)"), "12");
  EXPECT_EQ(repr("f(1, 3)"), "13");
  EXPECT_EQ(repr("f(1, c=0)"), "2");
  EXPECT_EQ(repr("f(b=1, a=5)"), "15");
  run("def g():\n  pass");
  EXPECT_EQ(repr("g()"), "None");
  EXPECT_EQ(repr("f"), "<function f>");
}

TEST_F(Blocks, DefaultsAreEvaluatedOnceWhenTheDefRuns) {
  run("k = 1\ndef f(x=k): return x\nk = 2");
  EXPECT_EQ(repr("f()"), "1");
}

TEST_F(Blocks, LoopsBranchesBreakAndContinue) {
  run("total = 0\nfor i in range(10):\n  if i % 2 == 0:\n    continue\n  elif i > 7:\n    break\n  total += i");
  EXPECT_EQ(repr("total"), "16");  // 1 + 3 + 5 + 7
  run("n = 0\nwhile True:\n  n = n + 1\n  if n >= 5: break");
  EXPECT_EQ(repr("n"), "5");
  run("s = ''\nfor c in 'abc': s = c + s");
  EXPECT_EQ(repr("s"), "'cba'");
  run("rows = 0\nfor r in ones(3, 2): rows += r.shape[0]");
  EXPECT_EQ(repr("rows"), "6");
}

TEST_F(Blocks, TupleUnpackingInAssignmentsAndLoops) {
  run("a, b = 1, 2\na, b = b, a");
  EXPECT_EQ(repr("(a, b)"), "(2, 1)");
  run("acc = 0\nfor i, x in [(1, 10), (2, 20)]:\n  acc += i * x");
  EXPECT_EQ(repr("acc"), "50");
  run("(p, [q, r]) = (1, (2, 3))");
  EXPECT_EQ(repr("q + r"), "5");
  EXPECT_STREQ(error("a, b = 1, 2, 3").what(), "too many values to unpack (expected 2)");
  EXPECT_STREQ(error("a, b, c = 1, 2").what(), "not enough values to unpack (expected 3, got 2)");
  EXPECT_STREQ(error("a, b = 1").what(), "cannot unpack non-iterable int object");
}

TEST_F(Blocks, ScopingFollowsPython) {
  run("g = 10\ndef f(x):\n  y = x + g\n  return y\nr = f(1)");
  EXPECT_EQ(repr("r"), "11");
  EXPECT_STREQ(error("y").what(), "name 'y' is not defined");  // f's local stayed inside it
  // a name assigned anywhere in a function is local to all of it
  run("def h():\n  z = g\n  g = 1\n  return z");
  EXPECT_STREQ(error("h()").what(), "local variable 'g' referenced before assignment");
  // a nested function reads its enclosing call's names
  run("def outer(a):\n  def inner(b):\n    return a + b\n  return inner\nadd5 = outer(5)");
  EXPECT_EQ(repr("add5(1)"), "6");
}

TEST_F(Blocks, RecursionAndItsLimit) {
  run("def fact(n):\n  if n <= 1: return 1\n  return n * fact(n - 1)");
  EXPECT_EQ(repr("fact(10)"), "3628800");
  run("def forever(n): return forever(n + 1)");
  const SourceError e = error("forever(0)");
  EXPECT_EQ(e.kind(), "recursion");
  EXPECT_STREQ(e.what(), "maximum recursion depth exceeded (1000 nested calls)");
  EXPECT_EQ(e.calls().size(), static_cast<size_t>(kMaxCallDepth));
  EXPECT_EQ(repr("fact(3)"), "6");  // the session goes on
}

// Whatever thread evaluates, recursion stops before its stack ends: here an expression evaluated
// directly (not as a statement, which gets a stack for 1000 calls) on a thread with room for a few calls.
TEST_F(Blocks, RecursionStopsBeforeASmallStackEnds) {
  run("def forever(n): return forever(n + 1)");
  std::string what;
  const auto deep = [&] {
    try {
      session.evaluate(*parse_expression("forever(0)"));
    } catch (const SourceError& e) {
      what = e.what();
    }
  };
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, kStackReserve + (size_t{128} << 10)), 0);
  pthread_t thread;
  ASSERT_EQ(pthread_create(
                &thread, &attr, [](void* f) -> void* { return (*static_cast<decltype(deep)*>(f))(), nullptr; },
                const_cast<void*>(static_cast<const void*>(&deep))),
            0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  EXPECT_TRUE(what.starts_with("maximum recursion depth exceeded (the stack is full after ")) << what;
  EXPECT_EQ(repr("1 + 1"), "2");
}

TEST_F(Blocks, DecoratorsApplyToTheFunctionValue) {
  run("def twice(f):\n  def g(x): return f(f(x))\n  return g\n@twice\ndef inc(x): return x + 1");
  EXPECT_EQ(repr("inc(0)"), "2");
  const SourceError e = error("@memo\ndef h(x): return x");
  EXPECT_EQ(e.kind(), "name");
  EXPECT_STREQ(e.what(), "name 'memo' is not defined");
  EXPECT_EQ(e.span(), (Span{1, 2, 4}));
}

TEST_F(Blocks, ArgumentErrorsAsPythonSaysThem) {
  run("def f(a, b, c=1): return a");
  EXPECT_STREQ(error("f(1)").what(), "f() missing 1 required positional argument: 'b'");
  EXPECT_STREQ(error("f()").what(), "f() missing 2 required positional arguments: 'a' and 'b'");
  EXPECT_STREQ(error("f(1, 2, 3, 4)").what(), "f() takes 3 positional arguments but 4 were given");
  EXPECT_STREQ(error("f(1, 2, d=3)").what(), "f() got an unexpected keyword argument 'd'");
  EXPECT_STREQ(error("f(1, 2, a=3)").what(), "f() got multiple values for argument 'a'");
  EXPECT_STREQ(error("x = 3\nx()").what(), "'int' object is not callable");
}

TEST_F(Blocks, AnErrorInsideAFunctionNamesItsLineAndTheCalls) {
  run("def inner(x):\n  return x + tensor([1, 2, 3])\ndef outer(x):\n  return inner(x)\n", "lib.tg");
  const SourceError e = error("y = 1\nouter(ones(2))");
  EXPECT_EQ(e.kind(), "shape");
  EXPECT_EQ(e.span(), (Span{2, 12, 1}));  // the '+' in lib.tg
  ASSERT_TRUE(e.origin());
  EXPECT_EQ(e.origin()->file, "lib.tg");
  ASSERT_EQ(e.calls().size(), 2u);
  EXPECT_EQ(e.calls()[0].source->file, "lib.tg");  // inner(x), from outer
  EXPECT_EQ(e.calls()[0].span.line, 4);
  EXPECT_EQ(e.calls()[1].source->file, "f.tg");  // outer(...), from the script
  EXPECT_EQ(e.calls()[1].span, (Span{2, 1, 5}));
  EXPECT_EQ(repr("y"), "1");  // what ran before the error stays
}

TEST_F(Blocks, PythonBuiltinsOnPlainValues) {
  EXPECT_EQ(repr("list(range(3))"), "[0, 1, 2]");
  EXPECT_EQ(repr("list(range(5, 0, -2))"), "[5, 3, 1]");
  EXPECT_EQ(repr("len([1, 2]) + len('abc') + len(ones(4, 2))"), "9");
  EXPECT_EQ(repr("int(2.9) + int(-2.9)"), "0");
  EXPECT_EQ(repr("float(3)"), "3.0");
  EXPECT_EQ(repr("str(1.5) + str(2)"), "'1.52'");
  EXPECT_EQ(repr("abs(-3)"), "3");
  EXPECT_EQ(repr("min(3, 1, 2) + max([4, 9, 2])"), "10");
  EXPECT_EQ(repr("round(2.5) + round(3.5)"), "6");
  EXPECT_EQ(repr("tuple([1, 2])"), "(1, 2)");
  EXPECT_EQ(repr("float(tensor(1.5).sum())"), "1.5");
  EXPECT_STREQ(error("range(1, 2, 0)").what(), "range() arg 3 must not be zero");
  EXPECT_STREQ(error("len(3)").what(), "object of type 'int' has no len()");
  EXPECT_STREQ(error("for i in 3: pass").what(), "'int' object is not iterable");
}

// range is Python's lazy sequence: no list of its ints is made unless one is asked for.
TEST_F(Blocks, RangeIsLazyAsPythons) {
  EXPECT_EQ(repr("(range(3), range(2, 20, 3), str(range(5, 0, -2)))"),
            "(range(0, 3), range(2, 20, 3), 'range(5, 0, -2)')");
  EXPECT_EQ(repr("(len(range(10**15)), len(range(0, 10, 3)), len(range(5, 0)), range(10**15)[-1])"),
            "(1000000000000000, 4, 0, 999999999999999)");
  EXPECT_EQ(repr("(range(10)[2:8:2], range(10)[::-1], range(0, 10, 3)[:], range(5)[7:])"),
            "(range(2, 8, 2), range(9, -1, -1), range(0, 12, 3), range(5, 5))");
  EXPECT_EQ(repr("(5 in range(10**15), 5.0 in range(0, 10, 5), 5.5 in range(10), 10 in range(10), 'a' in range(3))"),
            "(True, True, False, False, False)");
  EXPECT_EQ(repr("(range(0) == range(5, 2), range(1, 2, 7) == range(1, 2), range(3) == [0, 1, 2])"),
            "(True, True, False)");
  EXPECT_EQ(repr("(tuple(range(3)), [*range(2)], [i * i for i in range(4)], min(range(5, 9)), max(range(3)))"),
            "((0, 1, 2), [0, 1], [0, 1, 4, 9], 5, 2)");
  run("a, b = range(7, 9)\nn = 0\nfor i in range(10**18):\n  n += i\n  if i == 3: break");
  EXPECT_EQ(repr("(a, b, n, not range(0), not range(-1, 0))"), "(7, 8, 6, True, False)");
  EXPECT_STREQ(error("list(range(10**12))").what(),
               "range(0, 1000000000000) holds 1000000000000 ints, too many for a list (at most 134217728)");
  EXPECT_STREQ(error("range(3)[3]").what(), "range object index out of range");
  EXPECT_STREQ(error("x, y = range(3)").what(), "too many values to unpack (expected 2)");
}

}  // namespace
}  // namespace tr::repl
