// The .tg evaluator end to end: statements in a session, through the engine on the default device.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "repl/diagnostic.h"
#include "repl/parser.h"
#include "repl/session.h"
#include "repl/source_error.h"
#include "repl/value_format.h"
#include "repl/value_json.h"

namespace tr::repl {
namespace {

struct Failure {
  std::string kind, message;
  Span span;
};

class Eval : public ::testing::Test {
 protected:
  // Runs every statement of src and returns the last one's outcome.
  Outcome run(std::string_view src) {
    Outcome last;
    for (const Stmt& s : parse_program(src)) last = session.execute(s);
    return last;
  }

  Value eval(std::string_view expr) { return session.evaluate(*parse_expression(expr)); }
  std::string str(std::string_view expr) { return str_value(eval(expr)); }
  std::string repr(std::string_view expr) { return repr_value(eval(expr)); }

  Failure failure(std::string_view src) {
    try {
      run(src);
    } catch (const SourceError& e) {
      return Failure{e.kind(), e.what(), e.span()};
    }
    ADD_FAILURE() << "no error from: " << src;
    return {};
  }

  std::vector<PrintEvent> printed;
  Session session{[this](const PrintEvent& e) { printed.push_back(e); }};
};

TEST_F(Eval, BitwiseOperatorsOnNumbersAndTensors) {
  EXPECT_EQ(repr("5 & 3"), "1");
  EXPECT_EQ(repr("5 | 3"), "7");
  EXPECT_EQ(repr("5 ^ 3"), "6");
  EXPECT_EQ(repr("~5"), "-6");
  EXPECT_EQ(repr("1 << 10"), "1024");
  EXPECT_EQ(repr("-17 >> 2"), "-5");
  EXPECT_EQ(repr("True & False"), "False");
  EXPECT_EQ(repr("True | 2"), "3");
  EXPECT_EQ(failure("x = 1 << -1").message, "negative shift count");
  EXPECT_EQ(failure("x = 1 << 63").message, "integer overflow (ints are 64-bit)");
  EXPECT_EQ(failure("x = 1.5 | 1").message, "unsupported operand type for |: 'float'");
  EXPECT_EQ(failure("x = ~1.5").message, "bad operand type for unary ~: 'float'");
  run("t = tensor([6, 5]); t2 = t & 3; t3 = 1 | t; t4 = t ^ t; t5 = ~t; t6 = t << 2; t7 = t >> 1");
  EXPECT_EQ(str("t2"), "[2 1]");
  EXPECT_EQ(str("t3"), "[7 5]");
  EXPECT_EQ(str("t4"), "[0 0]");
  EXPECT_EQ(str("t5"), "[-7 -6]");
  EXPECT_EQ(str("t6"), "[24 20]");
  EXPECT_EQ(str("t7"), "[3 2]");
  run("t <<= 1");
  EXPECT_EQ(str("t"), "[12 10]");
  run("u = 2 << tensor([1, 3]); v = tensor([5, 6]) >> tensor([1, 2])");
  EXPECT_EQ(str("u"), "[ 4 16]");
  EXPECT_EQ(str("v"), "[2 1]");
  EXPECT_EQ(failure("x = 1.5 << tensor([1])").message, "only an int or a tensor can be shifted, not float");
}

TEST_F(Eval, IndexingByTensorsAndLists) {
  run("t = arange(12).reshape(3, 4); a = t[[2, 0]]; b = t[tensor([0, 2]), tensor([3, -1])]; c = t[:, [1]]");
  EXPECT_EQ(str("a"), "[[ 8  9 10 11]\n [ 0  1  2  3]]");
  EXPECT_EQ(str("b"), "[ 3 11]");
  EXPECT_EQ(repr("c.shape"), "(3, 1)");
  EXPECT_EQ(failure("x = t[[0.5]]").message, "a list index must hold ints, not float32");
  run("s = t.float().split(2, dim=1); v, i = t.sort(dim=0, descending=True)");
  EXPECT_EQ(repr("len(s)"), "2");
  EXPECT_EQ(str("i"), "[[2 2 2 2]\n [1 1 1 1]\n [0 0 0 0]]");
}

TEST_F(Eval, DotProductOfTwoTensors) {
  run("x = tensor([1,2]); y = (x * tensor([3,4])).sum()");
  EXPECT_EQ(str("y"), "11");
  EXPECT_EQ(repr("y.item()"), "11");
  EXPECT_EQ(repr("y.dtype"), "dtypes.int");
  EXPECT_EQ(repr("y.shape"), "()");
  run("print(y)");
  ASSERT_EQ(printed.size(), 1u);
  EXPECT_EQ(printed[0].text, "11");
}

TEST_F(Eval, TensorLiteralsInferTheDtype) {
  EXPECT_EQ(repr("tensor([True, False]).dtype"), "dtypes.bool");
  EXPECT_EQ(repr("tensor([1, 2]).dtype"), "dtypes.int");
  EXPECT_EQ(repr("tensor([True, 2]).dtype"), "dtypes.int");
  EXPECT_EQ(repr("tensor([1, 2.5]).dtype"), "dtypes.float");
  EXPECT_EQ(repr("tensor([[1, 2], [3, 4]]).shape"), "(2, 2)");
  EXPECT_EQ(repr("tensor(3).shape"), "()");
  EXPECT_EQ(repr("tensor([]).shape"), "(0,)");
  EXPECT_EQ(str("tensor([1, 2], dtype=float32)"), "[1. 2.]");
  EXPECT_EQ(str("tensor([1.7, -1.7], dtype='int32')"), "[ 1 -1]");
  EXPECT_EQ(str("Tensor([[1, 2], [3, 4]])"), "[[1 2]\n [3 4]]");
}

TEST_F(Eval, RaggedOrNonNumericDataIsAnError) {
  const Failure ragged = failure("x = tensor([[1, 2], [3]])");
  EXPECT_EQ(ragged.kind, "value");
  EXPECT_NE(ragged.message.find("ragged"), std::string::npos);
  EXPECT_EQ(ragged.span, (Span{1, 12, 1}));
  EXPECT_EQ(failure("tensor([1, [2]])").kind, "value");
  EXPECT_EQ(failure("tensor([1, 'a'])").message, "argument 'data' of tensor() must hold numbers, but it holds a str");
}

TEST_F(Eval, CreationFunctions) {
  EXPECT_EQ(str("zeros(2, 3)"), "[[0. 0. 0.]\n [0. 0. 0.]]");
  EXPECT_EQ(str("ones((2,), dtype=int32)"), "[1 1]");
  EXPECT_EQ(str("full((2, 2), 7)"), "[[7 7]\n [7 7]]");
  EXPECT_EQ(str("full(3, 1.5)"), "[1.5 1.5 1.5]");
  EXPECT_EQ(str("arange(5)"), "[0 1 2 3 4]");
  EXPECT_EQ(str("arange(1, 10, 3)"), "[1 4 7]");
  EXPECT_EQ(str("arange(0, 1, step=0.25)"), "[0.   0.25 0.5  0.75]");
  EXPECT_EQ(str("linspace(0, 1, 5)"), "[0.   0.25 0.5  0.75 1.  ]");
  EXPECT_EQ(str("eye(2)"), "[[1. 0.]\n [0. 1.]]");
  EXPECT_EQ(str("zeros_like(arange(3))"), "[0 0 0]");
  EXPECT_EQ(str("ones_like(arange(3), dtype=float32)"), "[1. 1. 1.]");
  EXPECT_EQ(str("full_like(arange(2), 2.5)"), "[2 2]");
  EXPECT_EQ(str("Tensor.zeros(2)"), "[0. 0.]");
}

TEST_F(Eval, RandomNumbersRepeatForASeed) {
  run("a = rand(4, seed=7); b = rand(4, seed=7); c = rand(4, seed=8); n = randn(2, 3)");
  EXPECT_EQ(str("a"), str("b"));
  EXPECT_NE(str("a"), str("c"));
  EXPECT_EQ(repr("((a >= 0) * (a < 1)).sum().item()"), "4");
  EXPECT_EQ(repr("n.shape"), "(2, 3)");
  EXPECT_EQ(failure("rand(2, seed=-1)").kind, "value");
}

TEST_F(Eval, TensorOperatorsWithPythonNumbers) {
  run("x = tensor([1, 2])");
  EXPECT_EQ(str("2 - x"), "[1 0]");
  EXPECT_EQ(str("x * 2.5"), "[2.5 5. ]");
  EXPECT_EQ(repr("(x * 2).dtype"), "dtypes.int");
  EXPECT_EQ(str("x / 2"), "[0.5 1. ]");
  EXPECT_EQ(str("x // 2"), "[0 1]");
  EXPECT_EQ(str("-x"), "[-1 -2]");
  EXPECT_EQ(str("x ** 2"), "[1 4]");
  EXPECT_EQ(str("2 ** x"), "[2 4]");
  EXPECT_EQ(str("x % 2"), "[1 0]");
  EXPECT_EQ(str("tensor([[1, 2], [3, 4]]) @ tensor([1, 1])"), "[3 7]");
  EXPECT_EQ(str("x > 1"), "[False  True]");
  EXPECT_EQ(str("x == tensor([1, 3])"), "[ True False]");
  EXPECT_EQ(str("1 < x"), "[False  True]");
}

TEST_F(Eval, PlainNumbersFollowPython) {
  EXPECT_EQ(repr("7 // 2"), "3");
  EXPECT_EQ(repr("-7 // 2"), "-4");
  EXPECT_EQ(repr("7 % -3"), "-2");
  EXPECT_EQ(repr("-7.5 // 2"), "-4.0");
  EXPECT_EQ(repr("1 / 2"), "0.5");
  EXPECT_EQ(repr("4 / 2"), "2.0");
  EXPECT_EQ(repr("2 ** 10"), "1024");
  EXPECT_EQ(repr("2 ** -1"), "0.5");
  EXPECT_EQ(repr("-2 ** 2"), "-4");
  EXPECT_EQ(repr("True + 1"), "2");
  EXPECT_EQ(repr("-True"), "-1");
  EXPECT_EQ(repr("1e-3 * 2"), "0.002");
  EXPECT_EQ(repr("1 < 2 < 3"), "True");
  EXPECT_EQ(repr("1 < 3 < 2"), "False");
  EXPECT_EQ(repr("0 or 5"), "5");
  EXPECT_EQ(repr("1 and 0"), "0");
  EXPECT_EQ(repr("not 0"), "True");
  EXPECT_EQ(repr("(1, 2) + (3,)"), "(1, 2, 3)");
  EXPECT_EQ(repr("(1, 2) < (1, 3)"), "True");
  EXPECT_EQ(repr("'a' + 'b'"), "'ab'");
  EXPECT_EQ(repr("[1, (2,), None]"), "[1, (2,), None]");
}

TEST_F(Eval, DivisionByZeroPointsAtTheOperator) {
  const Failure f = failure("y = 1 + 1 / 0");
  EXPECT_EQ(f.kind, "zero");
  EXPECT_EQ(f.message, "division by zero");
  EXPECT_EQ(f.span, (Span{1, 11, 1}));
  EXPECT_EQ(failure("5 // 0").kind, "zero");
  EXPECT_EQ(failure("5.0 % 0.0").kind, "zero");
  EXPECT_EQ(failure("9223372036854775807 + 1").kind, "value");
}

TEST_F(Eval, AttributesAndSequences) {
  run("x = zeros(2, 3)");
  EXPECT_EQ(repr("x.shape"), "(2, 3)");
  EXPECT_EQ(repr("x.shape[-1]"), "3");
  EXPECT_EQ(repr("x.shape[1:]"), "(3,)");
  EXPECT_EQ(repr("x.shape[::-1]"), "(3, 2)");
  EXPECT_EQ(repr("x.shape == (2, 3)"), "True");
  EXPECT_EQ(repr("x.ndim"), "2");
  EXPECT_EQ(repr("x.numel()"), "6");
  EXPECT_EQ(repr("x.device"), "'CPU'");
  EXPECT_EQ(repr("x.dtype == float32"), "True");
  EXPECT_EQ(repr("x.dtype == dtypes.float"), "True");
  EXPECT_EQ(repr("x.dtype"), "dtypes.float");
  EXPECT_EQ(repr("x.T.shape"), "(3, 2)");
  EXPECT_EQ(failure("x.shape[2]").kind, "index");
}

TEST_F(Eval, SizesAndLikesAsTinygrad) {
  run("x = arange(6).reshape(2, 3)");
  EXPECT_EQ(repr("x.element_size()"), "4");
  EXPECT_EQ(repr("x.nbytes()"), "24");
  EXPECT_EQ(repr("x.half().nbytes()"), "12");
  EXPECT_EQ(repr("x.size()"), "(2, 3)");
  EXPECT_EQ(repr("x.size(-1)"), "3");
  EXPECT_EQ(repr("x.is_floating_point()"), "False");
  EXPECT_EQ(repr("x.double().is_floating_point()"), "True");
  EXPECT_EQ(repr("x.short().dtype"), "dtypes.short");
  EXPECT_EQ(repr("x.empty_like().shape"), "(2, 3)");
  EXPECT_EQ(repr("x.empty_like(dtype=int8).dtype"), "dtypes.char");
  EXPECT_EQ(repr("x.float().rand_like(seed=3).tolist() == rand(2, 3, seed=3).tolist()"), "True");
  EXPECT_EQ(repr("x.pad_to(None, 4, value=-1).tolist()"), "[[0, 1, 2, -1], [3, 4, 5, -1]]");
  EXPECT_EQ(repr("x.pad_to((3, 3)).tolist()"), "[[0, 1, 2], [3, 4, 5], [0, 0, 0]]");
  EXPECT_EQ(repr("randperm(6, seed=2).sort()[0].tolist()"), "[0, 1, 2, 3, 4, 5]");
  EXPECT_EQ(failure("x.size(2)").kind, "index");
  EXPECT_EQ(failure("x.rand_like()").message, "rand_like needs a float dtype, got int32");
  EXPECT_EQ(failure("x.pad_to(1, 3)").message, "pad_to cannot pad dim 0 of size 2 to 1");
  EXPECT_EQ(failure("x.pad_to(3)").message, "pad_to needs 2 sizes for shape (2, 3), got 1");
  EXPECT_EQ(failure("randperm(-1)").message, "randperm needs n >= 0, got -1");
}

TEST_F(Eval, Reductions) {
  run("m = tensor([[1, 2, 3], [4, 5, 6]])");
  EXPECT_EQ(str("m.sum()"), "21");
  EXPECT_EQ(str("m.sum(axis=0)"), "[5 7 9]");
  EXPECT_EQ(str("m.sum(1, keepdim=True)"), "[[ 6]\n [15]]");
  EXPECT_EQ(str("m.max(axis=(0, 1))"), "6");
  EXPECT_EQ(str("m.mean()"), "3.5");
  EXPECT_EQ(str("m.min(axis=1)"), "[1 4]");
  EXPECT_EQ(str("m.argmax(axis=1)"), "[2 2]");
  EXPECT_EQ(str("m.prod(axis=0)"), "[ 4 10 18]");
  EXPECT_EQ(str("tensor([True, True, False]).sum()"), "2");
  EXPECT_EQ(repr("allclose(tensor([1., 2., 3., 4.]).var(), 5 / 3)"), "True");
  EXPECT_EQ(str("tensor([1., 2., 3., 4.]).var(correction=0)"), "1.25");
  EXPECT_EQ(repr("allclose(tensor([1., 2.]).softmax().sum(), 1.0)"), "True");
  EXPECT_EQ(repr("allclose(tensor([1., 2.]).log_softmax().exp(), tensor([1., 2.]).softmax())"), "True");
}

TEST_F(Eval, ElementwiseAndCasts) {
  run("x = tensor([-1.5, 0.0, 2.25])");
  EXPECT_EQ(str("x.abs()"), "[1.5  0.   2.25]");
  EXPECT_EQ(str("x.relu()"), "[0.   0.   2.25]");
  EXPECT_EQ(str("x.floor()"), "[-2.  0.  2.]");
  EXPECT_EQ(str("x.int()"), "[-1  0  2]");
  EXPECT_EQ(str("x.bool()"), "[ True False  True]");
  EXPECT_EQ(repr("x.cast('float16').dtype == half"), "True");
  EXPECT_EQ(repr("x.cast(dtypes.int32).dtype"), "dtypes.int");
  EXPECT_EQ(str("x.add(1)"), "[-0.5   1.    3.25]");
  EXPECT_EQ(str("x.maximum(0)"), "[0.   0.   2.25]");
  EXPECT_EQ(str("maximum(x, 1)"), "[1.   1.   2.25]");
  EXPECT_EQ(str("minimum(0, x)"), "[-1.5  0.   0. ]");
  EXPECT_EQ(str("where(x > 0, x, 0)"), "[0.   0.   2.25]");
  EXPECT_EQ(str("(x > 0).where(1, 2)"), "[2 2 1]");
  EXPECT_EQ(str("x.eq(0)"), "[False  True False]");
}

TEST_F(Eval, MovementAndIndexing) {
  run("a = arange(10)");
  EXPECT_EQ(str("a[2:8:2]"), "[2 4 6]");
  EXPECT_EQ(str("a[-1]"), "9");
  EXPECT_EQ(str("a[::-3]"), "[9 6 3 0]");
  EXPECT_EQ(str("a.reshape(2, 5)[1]"), "[5 6 7 8 9]");
  EXPECT_EQ(str("a.reshape((2, -1))[:, 0]"), "[0 5]");
  EXPECT_EQ(repr("a.reshape(2, 5)[..., None].shape"), "(2, 5, 1)");
  EXPECT_EQ(repr("a.reshape(2, 5)[None].shape"), "(1, 2, 5)");
  EXPECT_EQ(str("a[:3].pad((1, 1))"), "[0 0 1 2 0]");
  EXPECT_EQ(str("a[:3].pad(((2, 0),), value=9)"), "[9 9 0 1 2]");
  EXPECT_EQ(str("a[:4].shrink(((1, 3),))"), "[1 2]");
  EXPECT_EQ(str("a[:3].flip(0)"), "[2 1 0]");
  EXPECT_EQ(str("a[:6].reshape(2, 3).permute(1, 0)"), "[[0 3]\n [1 4]\n [2 5]]");
  EXPECT_EQ(str("a[:6].reshape(2, 3).transpose()"), "[[0 3]\n [1 4]\n [2 5]]");
  EXPECT_EQ(repr("zeros(2, 3, 4).transpose(a=0, b=2).shape"), "(4, 3, 2)");
  EXPECT_EQ(repr("zeros(2, 3, 4).transpose(dim0=1, dim1=2).shape"), "(2, 4, 3)");
  EXPECT_EQ(repr("a.reshape(2, 5).flatten().shape"), "(10,)");
  EXPECT_EQ(repr("a.unsqueeze(0).shape"), "(1, 10)");
  EXPECT_EQ(repr("a.reshape(1, 10).squeeze().shape"), "(10,)");
  EXPECT_EQ(repr("a.reshape(1, 10).expand(3, -1).shape"), "(3, 10)");
  EXPECT_EQ(str("a[:2].repeat(2)"), "[0 1 0 1]");
  EXPECT_EQ(str("a[:2].cat(a[5:7], a[:1])"), "[0 1 5 6 0]");
  EXPECT_EQ(str("tensor([[1, 2]]).cat(tensor([[3, 4]]), dim=1)"), "[[1 2 3 4]]");
  EXPECT_EQ(str("tensor([1, 2]).dot(tensor([3, 4]))"), "11");
}

TEST_F(Eval, ControlMethods) {
  run("x = tensor([[1, 2], [3, 4]])");
  EXPECT_EQ(repr("x.tolist()"), "[[1, 2], [3, 4]]");
  EXPECT_EQ(repr("tensor(2.5).tolist()"), "2.5");
  EXPECT_EQ(repr("x[0, 1].item()"), "2");
  EXPECT_EQ(repr("tensor([True]).item()"), "True");
  EXPECT_EQ(repr("x.realize()"), "<Tensor (2, 2) dtypes.int on CPU, realized>");
  EXPECT_EQ(repr("x + 1"), "<Tensor (2, 2) dtypes.int on CPU, lazy>");
  EXPECT_EQ(repr("x.contiguous().shape"), "(2, 2)");
  EXPECT_EQ(repr("realize(x + 1)"), "<Tensor (2, 2) dtypes.int on CPU, realized>");
  run("a, b = realize(x + 1, x * 2)");
  EXPECT_EQ(repr("(a.tolist(), b.tolist())"), "([[2, 3], [4, 5]], [[2, 4], [6, 8]])");
  EXPECT_EQ(repr("x.to('cpu').device"), "'CPU'");
  EXPECT_EQ(failure("x.item()").kind, "value");
  // numpy() returns the values, realized, and prints nothing itself: print(res) prints them once
  run("res = (x * 2).numpy()");
  EXPECT_TRUE(printed.empty());
  EXPECT_EQ(repr("res"), "<Tensor (2, 2) dtypes.int on CPU, realized>");
  run("print(res)");
  ASSERT_EQ(printed.size(), 1u);
  EXPECT_EQ(printed[0].text, "[[2 4]\n [6 8]]");
}

TEST_F(Eval, KernelsCountsWithoutRunning) {
  run("a = tensor([1., 2., 3.]); b = (a * 2 + 1).sum()");
  EXPECT_EQ(repr("kernels(b)"), "1");
  EXPECT_EQ(repr("b.realize().shape"), "()");
  EXPECT_EQ(repr("kernels(b)"), "0");
}

TEST_F(Eval, PrintJoinsValuesAndKeepsTheData) {
  run("x = tensor([1.5, 2.0])\nprint(x, 'is', (1, 2), 0.1)");
  ASSERT_EQ(printed.size(), 1u);
  EXPECT_EQ(printed[0].text, "[1.5 2. ] is (1, 2) 0.1");
  EXPECT_EQ(printed[0].span, (Span{2, 1, 5}));
  ASSERT_TRUE(printed[0].values[0].array.has_value());
  EXPECT_EQ(json_data(*printed[0].values[0].array).dump(), "[1.5,2.0]");
  EXPECT_EQ(json_value(printed[0].values[2].value).dump(), "[1,2]");
  EXPECT_EQ(json_data(HostArray{DType::Float32, {1}, {static_cast<double>(0.1f)}}).dump(), "[0.1]");
}

TEST_F(Eval, ExpressionStatementsShowTheirValue) {
  const Outcome shown = run("x = 3\nx * 2");
  ASSERT_TRUE(std::holds_alternative<Shown>(shown));
  EXPECT_EQ(repr_value(std::get<Shown>(shown).value), "6");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(run("print(1)")));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(run("y = 1")));
  const Outcome meta = run(":kernels y");
  ASSERT_TRUE(std::holds_alternative<Meta>(meta));
  EXPECT_EQ(std::get<Meta>(meta).name, "kernels");
}

TEST_F(Eval, UnknownNamesSuggestTheNearest) {
  run("x = 1");
  const Failure f = failure("y = xx + 1");
  EXPECT_EQ(f.kind, "name");
  EXPECT_EQ(f.message, "name 'xx' is not defined; did you mean 'x'?");
  EXPECT_EQ(f.span, (Span{1, 5, 2}));
  EXPECT_EQ(failure("zeors(2)").message, "name 'zeors' is not defined; did you mean 'zeros'?");
  EXPECT_EQ(failure("flaot32").message, "name 'flaot32' is not defined; did you mean 'float32'?");
  EXPECT_EQ(failure("qqqqqq").message, "name 'qqqqqq' is not defined");
  EXPECT_EQ(failure("dtypes.flot").message, "dtypes has no dtype 'flot'; did you mean 'float'?");
}

TEST_F(Eval, UnknownMethodsAndKeywordsAreNamed) {
  run("x = tensor([1, 2])");
  const Failure method = failure("x.resahpe(2, 1)");
  EXPECT_EQ(method.message, "'Tensor' object has no method 'resahpe'; did you mean 'reshape'?");
  EXPECT_EQ(method.span, (Span{1, 3, 7}));
  EXPECT_EQ(failure("x.shap").message, "'Tensor' object has no attribute 'shap'; did you mean 'shape'?");
  const Failure kw = failure("x.sum(axs=0)");
  EXPECT_EQ(kw.kind, "type");
  EXPECT_EQ(kw.message, "sum() got an unexpected keyword argument 'axs' (allowed: axis, keepdim, dtype)");
  EXPECT_EQ(kw.span, (Span{1, 7, 3}));
  EXPECT_EQ(failure("x.exp(1)").message, "exp() takes at most 0 positional arguments but 1 was given");
  EXPECT_EQ(failure("full((2,))").message, "full() missing required argument 'fill_value'");
  const Failure arg = failure("zeros(2, 'a')");
  EXPECT_EQ(arg.message, "argument 2 of zeros() must be an int, not str");
  EXPECT_EQ(arg.span, (Span{1, 10, 3}));
  EXPECT_EQ(failure("x.sum(axis=1.5)").message,
            "argument 'axis' of sum() must be an int or a tuple of ints, not float");
  EXPECT_EQ(failure("x.cast('flot32')").message, "unknown dtype 'flot32'; did you mean 'float32'?");
  EXPECT_EQ(failure("x.sum").message, "'sum' is a method; call it: x.sum()");
  EXPECT_EQ(failure("zeros").message, "'zeros' is a function; call it: zeros(...)");
  EXPECT_EQ(failure("x(1)").message, "'Tensor' object is not callable");
  EXPECT_EQ(failure("x.shape.foo").message, "'tuple' object has no attribute 'foo'");
}

TEST_F(Eval, EngineErrorsPointAtTheOperatorOrMethod) {
  const Failure broadcast = failure("a = zeros(2, 3)\nb = a + zeros(4)");
  EXPECT_EQ(broadcast.kind, "shape");
  EXPECT_NE(broadcast.message.find("broadcast"), std::string::npos);
  EXPECT_EQ(broadcast.span, (Span{2, 7, 1}));
  const Failure reshape = failure("zeros(2, 3).reshape(5)");
  EXPECT_EQ(reshape.kind, "shape");
  EXPECT_EQ(reshape.span, (Span{1, 13, 7}));
  EXPECT_EQ(failure("arange(4)[9]").kind, "index");
}

TEST_F(Eval, TensorsHaveNoTruthValueUnlessOneElement) {
  EXPECT_EQ(repr("not tensor([0])"), "True");
  EXPECT_EQ(repr("tensor([2]) and 7"), "7");
  const Failure f = failure("tensor([1, 2]) and 1");
  EXPECT_EQ(f.kind, "value");
  EXPECT_EQ(f.span, (Span{1, 16, 3}));
}

TEST_F(Eval, NamesSurviveAFailedStatement) {
  run("x = 1");
  failure("x = undefined_thing");
  EXPECT_EQ(repr("x"), "1");
  failure("x = 1 / 0");
  EXPECT_EQ(repr("x"), "1");
  const std::vector<std::string> known = session.known_names();
  for (const char* name : {"x", "zeros", "float32", "dtypes"}) {
    EXPECT_NE(std::find(known.begin(), known.end(), name), known.end()) << name;
  }
  session.reset();
  EXPECT_EQ(failure("x").kind, "name");
}

// tinygrad 0.14 gives an empty tensor an empty gradient, not None.
TEST_F(Eval, AnEmptyTensorsGradientIsEmpty) {
  run("x = zeros(0, 3, requires_grad=True)\nx.sum().backward()\ny = ones(2, 0)\n(y * 2).sum().backward()");
  EXPECT_EQ(repr("(x.grad.shape, y.grad.shape, str(x.grad))"), "((0, 3), (2, 0), '[]')");
}

TEST_F(Eval, AssertPassesOrShowsBothSides) {
  run("x = tensor([1, 2])");
  auto check = [&](std::string_view src) { return std::get<AssertResult>(run(src)); };
  EXPECT_TRUE(check("assert x.sum() == 3").ok);
  EXPECT_TRUE(check("assert x < 5").ok);
  EXPECT_TRUE(check("assert 0 < x <= 2").ok);
  EXPECT_TRUE(check("assert kernels(x * 2) == 1").ok);
  EXPECT_TRUE(check("assert allclose(x / 3, tensor([1 / 3, 2 / 3]))").ok);

  const AssertResult sum = check("assert x.sum() == 4");
  EXPECT_FALSE(sum.ok);
  EXPECT_EQ(sum.message, "assertion failed: 3 == 4");
  EXPECT_EQ(sum.span, (Span{1, 16, 2}));
  EXPECT_EQ(check("assert x == tensor([1, 3])").message, "assertion failed: [1 2] == [1 3]");
  EXPECT_EQ(check("assert 0 < x < 2").message, "assertion failed: [1 2] < 2");
  EXPECT_EQ(check("assert x.shape == (3,), 'bad shape'").message, "assertion failed: bad shape ((2,) == (3,))");
  EXPECT_EQ(check("assert x.sum() > 5 and True").message, "assertion failed");
  EXPECT_EQ(check("assert tensor([1, 0]), 'zeros'").message, "assertion failed: zeros");
}

TEST_F(Eval, ErrorsFormatWithFileLineAndCaret) {
  const std::string src = "a = zeros(2, 3)\nb = a.reshape(7)\n";
  try {
    run(src);
    FAIL() << "no error";
  } catch (const SourceError& e) {
    EXPECT_EQ(format_error("t.tg", source_line(src, e.span().line), e.span().line, e.span().col, e.span().len,
                           "cannot reshape"),
              "t.tg:2:7: error: cannot reshape\nb = a.reshape(7)\n      ^~~~~~~\n");
  }
}

}  // namespace
}  // namespace tr::repl
