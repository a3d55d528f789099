// The language beyond blocks: star arguments, keyword-only parameters and **kwargs, identity and
// membership, conditional expressions, lambdas, comprehensions, dicts, attribute and subscript
// assignment, augmented assignment, global and nonlocal, and `with Context(TRAINING=1)`.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/session_testing.h"
#include "repl/parser.h"
#include "repl/session.h"
#include "repl/source_error.h"
#include "repl/training.h"
#include "repl/value_format.h"

namespace tr::repl {
namespace {

class Language : public testing::SessionTest {
 protected:
  std::string parsed(std::string_view src) { return to_sexpr(parse_program(src).at(0)); }
};

TEST_F(Language, StarArgsKeywordOnlyAndKwargsInDefs) {
  run("def f(a, *rest, k=1, **kw):\n  return (a, rest, k, kw)");
  EXPECT_EQ(repr("f(1)"), "(1, (), 1, {})");
  EXPECT_EQ(repr("f(1, 2, 3, k=4, x=5, y=6)"), "(1, (2, 3), 4, {'x': 5, 'y': 6})");
  run("def g(a, *, b, c=3): return a + b + c");
  EXPECT_EQ(repr("g(1, b=2)"), "6");
  EXPECT_STREQ(error("g(1, 2)").what(), "g() takes 1 positional argument but 2 were given");
  EXPECT_STREQ(error("g(1)").what(), "g() missing 1 required keyword-only argument: 'b'");
  EXPECT_STREQ(error("g(1, b=2, d=4)").what(), "g() got an unexpected keyword argument 'd'");
  EXPECT_EQ(parsed("def h(a, b=2, *r, c, **kw): pass"), "(def h (a b=2 *r c **kw) {(pass)})");
  EXPECT_STREQ(error("def bad(*): pass").what(), "named arguments must follow bare *");
  EXPECT_STREQ(error("def bad(**kw, a): pass").what(), "arguments cannot follow var-keyword argument");
  EXPECT_STREQ(error("def bad(*a=1): pass").what(), "var-positional and var-keyword arguments cannot have default values");
}

TEST_F(Language, StarAndDoubleStarInCalls) {
  run("def f(a, b, c=0, d=0): return a * 1000 + b * 100 + c * 10 + d");
  EXPECT_EQ(repr("f(*[1, 2], **{'d': 4})"), "1204");
  EXPECT_EQ(repr("f(1, *(2, 3))"), "1230");
  run("args = (2, 3)\nkw = {'c': 5}");
  EXPECT_EQ(repr("f(*args, **kw)"), "2350");
  EXPECT_EQ(repr("zeros(*args).shape"), "(2, 3)");  // builtins take them too
  EXPECT_EQ(repr("[0, *args, *range(2)]"), "[0, 2, 3, 0, 1]");
  EXPECT_STREQ(error("f(1, 2, c=1, **{'c': 2})").what(), "f() got multiple values for keyword argument 'c'");
  EXPECT_STREQ(error("f(*3)").what(), "'int' object is not iterable");
  EXPECT_STREQ(error("f(**[1])").what(), "argument after ** must be a dict, not list");
}

TEST_F(Language, IdentityAndMembership) {
  run("x = ones(2)\ny = x\nz = ones(2)");
  EXPECT_EQ(repr("(x is y, x is z, x is not z, None is None, x.grad is None)"), "(True, False, True, True, True)");
  EXPECT_EQ(repr("(2 in [1, 2], 3 not in (1, 2), 'b' in 'abc', 'k' in {'k': 1}, x in [z, y])"),
            "(True, True, True, True, True)");
  EXPECT_EQ(repr("x in [z]"), "False");  // tensors are found by identity, not compared element-wise
  EXPECT_EQ(parsed("a is not b"), "(is not a b)");
  EXPECT_EQ(parsed("a not in b"), "(not in a b)");
  EXPECT_STREQ(error("[1] is [1]").what(), "'is' compares objects, and a list here is a value: compare it with ==");
  EXPECT_STREQ(error("1 in 3").what(), "argument of type 'int' is not iterable");
  EXPECT_STREQ(error("1 in 'abc'").what(), "'in <string>' requires string as left operand, not int");
}

TEST_F(Language, ConditionalExpressionsAndLambdas) {
  EXPECT_EQ(repr("1 if 2 > 1 else 0"), "1");
  EXPECT_EQ(repr("'a' if False else 'b' if False else 'c'"), "'c'");
  EXPECT_EQ(parsed("y = a if c else b"), "(= y (if c a b))");
  EXPECT_STREQ(error("1 if True").what(), "expected 'else' in the conditional expression ('a if c else b')");
  run("sq = lambda v: v * v\nadd = lambda a, b=10: a + b");
  EXPECT_EQ(repr("(sq(3), add(1), add(1, 2))"), "(9, 11, 3)");
  EXPECT_EQ(repr("sq"), "<function <lambda>>");
  // a lambda closes over the names around it, as a def does
  run("def scaler(k): return lambda v: v * k\ntimes3 = scaler(3)");
  EXPECT_EQ(repr("times3(4)"), "12");
  // tinygrad's layer lists mix layers, lambdas and methods
  run("layers = [lambda t: t.flatten(1), lambda t: t.sum(axis=1)]\nh = ones(2, 3, 4)\nfor f in layers: h = f(h)");
  EXPECT_EQ(repr("h.tolist()"), "[12.0, 12.0]");
}

TEST_F(Language, ComprehensionsHaveTheirOwnScope) {
  EXPECT_EQ(repr("[i * i for i in range(5) if i % 2 == 0]"), "[0, 4, 16]");
  EXPECT_EQ(repr("[(i, j) for i in range(3) for j in range(i)]"), "[(1, 0), (2, 0), (2, 1)]");
  EXPECT_EQ(repr("tuple(r.sum().item() for r in ones(2, 3))"), "(3.0, 3.0)");
  EXPECT_EQ(repr("(k for k in 'ab')"), "('a', 'b')");
  run("i = 'kept'\nsquares = [i * 2 for i in range(3)]");
  EXPECT_EQ(repr("i"), "'kept'");  // the comprehension's i stayed inside it
  run("def f(n):\n  scale = 10\n  return [scale * k for k in range(n)]");
  EXPECT_EQ(repr("f(3)"), "[0, 10, 20]");
  EXPECT_EQ(parsed("[x for x in xs if x > 0]"), "(listcomp x for x xs if (> x 0))");
  EXPECT_STREQ(error("f(k for k in 'ab', 1)").what(),
               "a generator expression must be the only argument unless it is in brackets");
}

TEST_F(Language, DictsWithStringKeys) {
  run("d = {'lr': 0.1, 'steps': 3}\nd['lr'] = 0.2\nd['new'] = 1");
  EXPECT_EQ(repr("d"), "{'lr': 0.2, 'steps': 3, 'new': 1}");
  EXPECT_EQ(repr("(len(d), d.get('none'), d.get('none', 5), d.keys(), [k for k in d])"),
            "(3, None, 5, ['lr', 'steps', 'new'], ['lr', 'steps', 'new'])");
  EXPECT_EQ(repr("d.items()[0]"), "('lr', 0.2)");
  EXPECT_STREQ(error("d['missing']").what(), "KeyError: 'missing'");
  EXPECT_STREQ(error("{1: 2}").what(), "dict keys are strings here, not int");
}

TEST_F(Language, AttributeAssignment) {
  run("w = tensor([1.0, 2.0]).realize()\nopt = nn.optim.SGD([w], lr=0.1)\nopt.lr = 0.5\nopt.lr *= 2");
  EXPECT_EQ(repr("opt.lr"), "1.0");
  run("w.grad = ones(2)");
  EXPECT_EQ(repr("w.grad.tolist()"), "[1.0, 1.0]");
  run("w.grad = None\nw.requires_grad = True");
  EXPECT_EQ(repr("w.grad"), "None");
  run("l = nn.Linear(2, 1)\nl.weight = zeros(1, 2)");
  EXPECT_EQ(repr("l(ones(1, 2)).shape"), "(1, 1)");
  EXPECT_STREQ(error("l.weight = zeros(3)").what(), "the new tensor has shape (3,), the layer's (1, 2)");
  EXPECT_STREQ(error("w.grad = ones(3)").what(), "the gradient has shape (3,), the tensor (2,)");
  EXPECT_STREQ(error("w.shape = (1,)").what(),
               "cannot set attribute 'shape' of a Tensor (a program may set grad and requires_grad)");
  EXPECT_STREQ(error("opt.nope = 1").what(), "cannot set attribute 'nope' of a 'SGD' object");
  EXPECT_STREQ(error("k = 1\nk.real = 2").what(), "cannot set attribute 'real' of a 'int' object");
  const SourceError e = error("Tensor.training = True");
  EXPECT_EQ(e.kind(), "name");
  EXPECT_NE(std::string(e.what()).find("Context(TRAINING=1)"), std::string::npos);
}

TEST_F(Language, SubscriptAssignmentWritesARealizedTensorInPlace) {
  run("x = zeros(2, 3).contiguous().realize()\nalias = x\nx[0] = 1\nx[1, 1:3] = tensor([5.0, 6.0])");
  EXPECT_EQ(repr("alias.tolist()"), "[[1.0, 1.0, 1.0], [0.0, 5.0, 6.0]]");
  run("y = arange(6).reshape(2, 3)\ny[:, 0] = -1");  // a lazy tensor is realized first
  EXPECT_EQ(repr("y.tolist()"), "[[-1, 1, 2], [-1, 4, 5]]");
  run("z = ones(3)\nz[:] = 7");
  EXPECT_EQ(repr("z.tolist()"), "[7.0, 7.0, 7.0]");
  run("xs = [1, 2, 3]\nxs[-1] = 9");
  EXPECT_EQ(repr("xs"), "[1, 2, 9]");
  EXPECT_STREQ(error("t = (1, 2)\nt[0] = 3").what(), "'tuple' object does not support item assignment");
  EXPECT_STREQ(error("x[0] = 'a'").what(), "a tensor's items take a tensor or a number, not str");
  EXPECT_STREQ(error("x[0] = ones(4)").what(), "cannot expand (4,) to (3,)");
}

TEST_F(Language, AugmentedAssignmentForEveryOperator) {
  run("a = 7\na += 1\na -= 2\na *= 3\na //= 4\na %= 3\na **= 3\nb = 7\nb /= 2");
  EXPECT_EQ(repr("(a, b)"), "(1, 3.5)");  // ((7 + 1 - 2) * 3 // 4 % 3) ** 3
  run("m = ones(2, 2)\nm @= tensor([[1.0, 2.0], [3.0, 4.0]])");
  EXPECT_EQ(repr("m.tolist()"), "[[4.0, 6.0], [4.0, 6.0]]");
  // tinygrad's in-place operators: every name for the tensor sees the change
  run("p = tensor([1.0, 2.0]).realize()\nq = p\np += 1\np *= 2");
  EXPECT_EQ(repr("q.tolist()"), "[4.0, 6.0]");
  run("v = tensor([1.0, 2.0]).realize()\nv[0] += 10");
  EXPECT_EQ(repr("v.tolist()"), "[11.0, 2.0]");
  run("d = {'n': 1}\nd['n'] += 1\nopt = nn.optim.SGD([v])\nopt.lr /= 10");
  EXPECT_EQ(repr("(d['n'], opt.lr)"), "(2, 0.0001)");
  EXPECT_STREQ(error("(a, b) += 1").what(),
               "this expression cannot be assigned to ('x += v' needs a name, an attribute or a subscript)");
}

TEST_F(Language, GlobalAndNonlocal) {
  run("count = 0\ndef bump():\n  global count\n  count += 1\nbump()\nbump()");
  EXPECT_EQ(repr("count"), "2");
  run("def counter():\n  n = 0\n  def inc():\n    nonlocal n\n    n += 1\n    return n\n  return inc\nc = counter()\nc()");
  EXPECT_EQ(repr("c()"), "2");
  EXPECT_STREQ(error("nonlocal q").what(), "nonlocal declaration not allowed at module level");
  EXPECT_STREQ(error("def f(a):\n  global a").what(), "name 'a' is parameter and global");
  EXPECT_STREQ(error("def g():\n  nonlocal zz\n  zz = 1\ng()").what(), "no binding for nonlocal 'zz' found");
}

TEST_F(Language, WithContextTrainingAndTheDecorator) {
  EXPECT_FALSE(training());
  run("with Context(TRAINING=1) as c:\n  inside = c");
  EXPECT_FALSE(training());  // put back after the block
  EXPECT_EQ(repr("inside"), "None");
  run("@Context(TRAINING=1)\ndef step(): return 1\nstep()");
  EXPECT_FALSE(training());
  EXPECT_STREQ(error("with 3: pass").what(),
               "'int' object does not support the context manager protocol (with takes Context(TRAINING=1))");
  EXPECT_STREQ(error("Context(DEBUG=2)").what(),
               "Context() here sets TRAINING only: Context(TRAINING=1) (the other variables are command-line settings: "
               "DEBUG, BEAM, NOOPT)");
  // an error inside the block leaves training mode as it was
  error("with Context(TRAINING=1):\n  undefined_name");
  EXPECT_FALSE(training());
  const SourceError e = error("with Tensor.train(): pass");
  EXPECT_NE(std::string(e.what()).find("not in tinygrad 0.14"), std::string::npos);
}

TEST_F(Language, ErrorsInsideLambdasAndComprehensionsPointAtTheirToken) {
  const SourceError e = error("f = lambda v: v + ones(3)\nf(ones(2))");
  EXPECT_EQ(e.kind(), "shape");
  EXPECT_EQ(e.span(), (Span{1, 17, 1}));  // the '+' inside the lambda
  ASSERT_EQ(e.calls().size(), 1u);
  EXPECT_EQ(e.calls()[0].span.line, 2);
  const SourceError c = error("[k.sum() for k in 5]");
  EXPECT_EQ(c.span(), (Span{1, 19, 1}));
}

TEST_F(Language, StringLiteralsHaveTheirEscapesDecoded) {
  EXPECT_EQ(repr(R"(len("\x41"))"), "1");
  EXPECT_EQ(repr(R"(("\x41\u0042\103" == "ABC", len("\n\t\\\0"), r"\n", len(r"\n")))"), R"((True, 4, '\\n', 2))");
  EXPECT_EQ(repr(R"([c for c in "a\tb"])"), R"(['a', '\t', 'b'])");
}

}  // namespace
}  // namespace tr::repl
