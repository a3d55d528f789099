// The .tg front end: tokens with positions, Python's precedence, and located syntax errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "repl/diagnostic.h"
#include "repl/lexer.h"
#include "repl/line_index.h"
#include "repl/parser.h"
#include "repl/source_error.h"

namespace tr::repl {
namespace {

std::vector<std::string> texts(const std::vector<Token>& toks) {
  std::vector<std::string> out;
  for (const Token& t : toks) {
    switch (t.kind) {
      case TokenKind::Newline: out.emplace_back("NL"); break;
      case TokenKind::Indent: out.emplace_back("IN"); break;
      case TokenKind::Dedent: out.emplace_back("DE"); break;
      case TokenKind::End: out.emplace_back("END"); break;
      default: out.push_back(t.text);
    }
  }
  return out;
}

std::string sexpr(std::string_view src) { return to_sexpr(*parse_expression(src)); }

std::string program(std::string_view src) {
  std::string out;
  for (const Stmt& s : parse_program(src)) out += (out.empty() ? "" : " | ") + to_sexpr(s);
  return out;
}

// The error a source raises, as "LINE:COL+LEN message".
std::string syntax_error(std::string_view src) {
  try {
    parse_program(src);
  } catch (const SourceError& e) {
    EXPECT_EQ(e.kind(), "syntax");
    return fmt::format("{}:{}+{} {}", e.span().line, e.span().col, e.span().len, e.what());
  }
  return "no error";
}

TEST(Lexer, TokensCarryKindTextAndPosition) {
  const std::vector<Token> toks = lex("x = a.sum(axis=1) ** 2\ny//3");
  EXPECT_EQ(texts(toks), (std::vector<std::string>{"x", "=", "a", ".", "sum", "(", "axis", "=", "1", ")", "**", "2",
                                                   "NL", "y", "//", "3", "END"}));
  EXPECT_EQ(toks[0].kind, TokenKind::Name);
  EXPECT_EQ(toks[8].kind, TokenKind::Int);
  EXPECT_EQ(toks[10].span, (Span{1, 19, 2}));
  EXPECT_EQ(toks[14].span, (Span{2, 2, 2}));
}

TEST(Lexer, NumbersInEveryPythonSpelling) {
  const std::vector<Token> toks = lex("1 1.5 1e-3 .5 2. 3E+2 7");
  const std::vector<TokenKind> kinds{TokenKind::Int,   TokenKind::Float, TokenKind::Float, TokenKind::Float,
                                     TokenKind::Float, TokenKind::Float, TokenKind::Int};
  for (size_t i = 0; i < kinds.size(); i++) EXPECT_EQ(toks[i].kind, kinds[i]) << toks[i].text;
  EXPECT_EQ(toks[3].text, ".5");
}

TEST(Lexer, EllipsisAfterNumberIsNotAFloat) {
  EXPECT_EQ(texts(lex("x[1...]")), (std::vector<std::string>{"x", "[", "1", "...", "]", "END"}));
}

TEST(Lexer, KeywordsAreTheirOwnKind) {
  const std::vector<Token> toks = lex("not True and None or print assert x");
  for (int i = 0; i < 7; i++) EXPECT_EQ(toks[i].kind, TokenKind::Keyword) << toks[i].text;
  EXPECT_EQ(toks[7].kind, TokenKind::Name);
}

TEST(Lexer, StringsInEitherQuoteWithEscapes) {
  const std::vector<Token> toks = lex(R"('it''s' "a\"b\n")");
  EXPECT_EQ(toks[0].text, "it");
  EXPECT_EQ(toks[1].text, "s");
  EXPECT_EQ(toks[2].kind, TokenKind::String);
  EXPECT_EQ(toks[2].text, "a\"b\n");
  EXPECT_EQ(toks[2].span, (Span{1, 9, 8}));
}

TEST(Lexer, CommentsAndBlankLinesVanish) {
  EXPECT_EQ(texts(lex("# head\n\nx = 1  # one\n\n\ny\n")),
            (std::vector<std::string>{"x", "=", "1", "NL", "y", "NL", "END"}));
}

TEST(Lexer, NewlinesInsideBracketsContinueTheStatement) {
  EXPECT_EQ(texts(lex("f(1,\n  [2,\n 3])\nz")),
            (std::vector<std::string>{"f", "(", "1", ",", "[", "2", ",", "3", "]", ")", "NL", "z", "END"}));
  EXPECT_EQ(texts(lex("a = 1 + \\\n 2")), (std::vector<std::string>{"a", "=", "1", "+", "2", "END"}));
}

TEST(Lexer, MetaCommandIsOneTokenPerLine) {
  const std::vector<Token> toks = lex("x = 1\n:kernels x  # why\ny[1:2]");
  EXPECT_EQ(texts(toks),
            (std::vector<std::string>{"x", "=", "1", "NL", ":kernels x", "NL", "y", "[", "1", ":", "2", "]", "END"}));
  EXPECT_EQ(toks[4].kind, TokenKind::Meta);
  EXPECT_EQ(toks[4].span, (Span{2, 1, 10}));
  EXPECT_EQ(lex(":graph x out#1.dot")[0].text, ":graph x out#1.dot");
  EXPECT_EQ(lex("x = 1; :vars")[4].kind, TokenKind::Meta);
  EXPECT_EQ(texts(lex("print(1); :kernels; :time 2")),
            (std::vector<std::string>{"print", "(", "1", ")", ";", ":kernels", ";", ":time 2", "END"}));
  EXPECT_EQ(texts(lex(":kernels  # a; b\nx")), (std::vector<std::string>{":kernels", "NL", "x", "END"}));
}

TEST(Lexer, ErrorsCarryThePosition) {
  try {
    lex("x = 1\ny = $");
    FAIL() << "no error";
  } catch (const SourceError& e) {
    EXPECT_EQ(e.kind(), "syntax");
    EXPECT_EQ(e.span(), (Span{2, 5, 1}));
    EXPECT_STREQ(e.what(), "invalid character '$'");
  }
  try {
    lex("s = 'abc\n");
    FAIL() << "no error";
  } catch (const SourceError& e) {
    EXPECT_EQ(e.span().col, 5);
    EXPECT_STREQ(e.what(), "unterminated string literal");
  }
  EXPECT_THROW(lex("1e+"), SourceError);
  EXPECT_THROW(lex("12abc"), SourceError);
}

// Python's escapes, UTF-8 past ASCII; one Python does not know keeps its backslash, as Python keeps it.
TEST(Lexer, StringLiteralsDecodePythonsEscapes) {
  auto value = [](std::string_view src) { return lex(src).at(0).text; };
  EXPECT_EQ(value(R"("\x41\t\n\r\\\'\"")"), "A\t\n\r\\'\"");
  EXPECT_EQ(value(R"('\0\101\7a\18')"), std::string("\0A\7a\1" "8", 6));
  EXPECT_EQ(value(R"('\a\b\f\v')"), "\a\b\f\v");
  EXPECT_EQ(value(R"("\u00e9\U0001F600\xe9\x7f")"), "\u00e9\U0001F600\u00e9\x7f");
  EXPECT_EQ(value(R"("\d\ \q\8")"), R"(\d\ \q\8)");
  // a raw string keeps every backslash, the one before its quote included
  EXPECT_EQ(value(R"(r"\x41\n\"")"), R"(\x41\n\")");
  EXPECT_EQ(value(R"(R'\\')"), R"(\\)");
  EXPECT_EQ(value(R"(u'\x41')"), "A");
  EXPECT_EQ(texts(lex("r + 'a'")), (std::vector<std::string>{"r", "+", "a", "END"}));
}

TEST(Lexer, BadEscapesAndPrefixesAreErrorsAtTheirPlace) {
  EXPECT_EQ(syntax_error(R"(s = 'ab\x4' + 1)"), R"(1:8+3 truncated \xXX escape)");
  EXPECT_EQ(syntax_error(R"(s = "\u12g4")"), R"(1:6+4 truncated \uXXXX escape)");
  EXPECT_EQ(syntax_error(R"(s = "\U00110000")"), R"(1:6+10 illegal Unicode character \U00110000)");
  EXPECT_EQ(syntax_error(R"(s = "\N{BULLET}")"),
            R"(1:6+2 \N{...} escapes (Unicode character names) are not supported; write the character or \u)");
  EXPECT_EQ(syntax_error(R"(s = f"{x}")"), "1:5+1 f-strings are not supported");
  EXPECT_EQ(syntax_error(R"(s = rb'x')"), "1:5+2 bytes literals are not supported");
  EXPECT_EQ(syntax_error("s = r'abc\\'\nt = 1"), "1:5+7 unterminated string literal");
}

TEST(Lexer, NeedsMoreInputWhileABracketIsOpen) {
  EXPECT_TRUE(needs_more_input("x = tensor([1, 2,"));
  EXPECT_TRUE(needs_more_input("f(\n"));
  EXPECT_FALSE(needs_more_input("x = tensor([1, 2])"));
  EXPECT_FALSE(needs_more_input("x = ')'"));
  EXPECT_FALSE(needs_more_input("x = '(\n"));
}

// Python's REPL: an open bracket reads on only while the text can still be valid; a wrong closing
// bracket, or a line that cannot continue the open one, ends the input, whose error is then shown.
TEST(Lexer, AnOpenBracketReadsOnOnlyWhileTheNextLineCanContinueIt) {
  EXPECT_TRUE(needs_more_input("x = foo(1, 2"));
  EXPECT_FALSE(needs_more_input("x = foo(1, 2\ny = 3"));
  EXPECT_TRUE(needs_more_input("x = foo(1,\n  2"));
  EXPECT_TRUE(needs_more_input("x = foo(1,\n  # a comment"));
  EXPECT_FALSE(needs_more_input("x = foo(1,\n  2\n)"));
  EXPECT_FALSE(needs_more_input("print((1]"));
  EXPECT_FALSE(needs_more_input("print((1],\n"));
  EXPECT_FALSE(needs_more_input("x = [1, 2 3"));
  EXPECT_TRUE(needs_more_input("x = [i for i in"));
  // inside a block too: an error before the end is shown now, not after the blank line
  EXPECT_TRUE(needs_more_input("for i in x:\n  y = f(i,"));
  EXPECT_FALSE(needs_more_input("for i in x:\n  y = f(i,\n  z += 1"));
  EXPECT_FALSE(needs_more_input("for i in x:\n  y = = i"));
  EXPECT_TRUE(needs_more_input("for i in x:\n  y = i"));
}

TEST(Parser, ArithmeticPrecedence) {
  EXPECT_EQ(sexpr("1 + 2 * 3"), "(+ 1 (* 2 3))");
  EXPECT_EQ(sexpr("1 - 2 - 3"), "(- (- 1 2) 3)");
  EXPECT_EQ(sexpr("a @ b + c // d % e / f"), "(+ (@ a b) (/ (% (// c d) e) f))");
  EXPECT_EQ(sexpr("(1 + 2) * 3"), "(* (+ 1 2) 3)");
}

TEST(Parser, PowerIsRightAssociativeAndBindsTighterThanUnaryMinusOnItsLeft) {
  EXPECT_EQ(sexpr("-2**2"), "(- (** 2 2))");
  EXPECT_EQ(sexpr("2**3**2"), "(** 2 (** 3 2))");
  EXPECT_EQ(sexpr("2**-1"), "(** 2 (- 1))");
  EXPECT_EQ(sexpr("-x.sum()**2"), "(- (** (call (. x sum)) 2))");
}

TEST(Parser, BooleanOperatorsAndComparisons) {
  EXPECT_EQ(sexpr("a or b and not c == d"), "(or a (and b (not (== c d))))");
  EXPECT_EQ(sexpr("a + 1 < b * 2"), "(< (+ a 1) (* b 2))");
  EXPECT_EQ(sexpr("0 <= x < 10"), "(chain 0 <= x < 10)");
  EXPECT_EQ(sexpr("not not a"), "(not (not a))");
}

TEST(Parser, BitwiseOperatorsInPythonsPrecedence) {
  EXPECT_EQ(sexpr("a | b ^ c & d << 1 + 2"), "(| a (^ b (& c (<< d (+ 1 2)))))");
  EXPECT_EQ(sexpr("a & b == c | d"), "(== (& a b) (| c d))");
  EXPECT_EQ(sexpr("a >> 1 >> 2"), "(>> (>> a 1) 2)");
  EXPECT_EQ(sexpr("~a ** 2"), "(~ (** a 2))");
  EXPECT_EQ(sexpr("-~a"), "(- (~ a))");
  EXPECT_EQ(program("x <<= 2"), "(<<= x 2)");
  EXPECT_EQ(program("x |= y"), "(|= x y)");
}

TEST(Parser, Literals) {
  EXPECT_EQ(sexpr("[1, 2.5, True, None, 'hi', ...]"), "(list 1 2.5 True None \"hi\" ...)");
  EXPECT_EQ(sexpr("[[1, 2], [3, 4],]"), "(list (list 1 2) (list 3 4))");
  EXPECT_EQ(sexpr("()"), "(tuple)");
  EXPECT_EQ(sexpr("(1,)"), "(tuple 1)");
  EXPECT_EQ(sexpr("(1, 2)"), "(tuple 1 2)");
  EXPECT_EQ(sexpr("(1)"), "1");
  EXPECT_EQ(sexpr("1.0"), "1.0");
  EXPECT_EQ(sexpr("1, 2"), "(tuple 1 2)");
}

TEST(Parser, CallsAttributesMethodsSubscripts) {
  EXPECT_EQ(sexpr("f(a, k=v)"), "(call f a k=v)");
  EXPECT_EQ(sexpr("x.shape"), "(. x shape)");
  EXPECT_EQ(sexpr("x.sum(axis=1).T"), "(. (call (. x sum) axis=1) T)");
  EXPECT_EQ(sexpr("x[1:3, ::2, 0]"), "([] x (: 1 3 _) (: _ _ 2) 0)");
  EXPECT_EQ(sexpr("x[..., None]"), "([] x ... None)");
  EXPECT_EQ(sexpr("x[:]"), "([] x (: _ _ _))");
  EXPECT_EQ(sexpr("x[-1][::-1]"), "([] ([] x (- 1)) (: _ _ (- 1)))");
  EXPECT_EQ(sexpr("print(x, y)"), "(call print x y)");
  EXPECT_EQ(sexpr("f(\n  1,\n  2,\n)"), "(call f 1 2)");
}

TEST(Parser, Statements) {
  EXPECT_EQ(program("x = 1; y = x * 2\nprint(y)"), "(= x 1) | (= y (* x 2)) | (call print y)");
  EXPECT_EQ(program("assert x == 2, 'two'"), "(assert (== x 2) \"two\")");
  EXPECT_EQ(program("assert x"), "(assert x)");
  EXPECT_EQ(program(":src 2 opencl\nx"), "(meta src 2 opencl) | x");
  EXPECT_EQ(program("print(1); :kernels; :time"), "(call print 1) | (meta kernels) | (meta time)");
  EXPECT_EQ(program("t = 1, 2"), "(= t (tuple 1 2))");
  EXPECT_EQ(program("\n\n;;\n"), "");
}

TEST(Parser, AQuestionMarkAfterOrBeforeAStatementAsksForHelp) {
  EXPECT_EQ(program("x.softmax?"), "(? (. x softmax))");
  EXPECT_EQ(program("?softmax"), "(? softmax)");
  EXPECT_EQ(program("(a + b).sum?; ?dtypes.float32"), "(? (. (+ a b) sum)) | (? (. dtypes float32))");
  EXPECT_EQ(program("x.sum ?\ny = 1"), "(? (. x sum)) | (= y 1)");
  // the help is at the '?'; the statement starts where it is written
  const std::vector<Stmt> stmts = parse_program("y = 1;  x.sum?");
  EXPECT_EQ(stmts[1].span, (Span{1, 9, 1}));
  EXPECT_EQ(std::get<ExprStmt>(stmts[1].node).expr->span, (Span{1, 14, 1}));
}

TEST(Parser, AQuestionMarkInsideAStatementIsAnErrorAtIt) {
  EXPECT_EQ(syntax_error("x = y?"), "1:6+1 '?' asks for help at the end or the start of a statement: x.sum? or ?x.sum");
  EXPECT_EQ(syntax_error("f(x?)"), "1:4+1 '?' asks for help at the end or the start of a statement: x.sum? or ?x.sum");
  EXPECT_EQ(syntax_error("x.sum" "??"), "1:7+1 '?" "?' (IPython's source view) is not supported; one '?' shows the entry");
  EXPECT_EQ(syntax_error("?"), "1:2+0 unexpected end of input");
}

TEST(Parser, SpansPointAtTheOperatorOrName) {
  const std::vector<Stmt> stmts = parse_program("y = a.sum(1) + b");
  const Assign& assign = std::get<Assign>(stmts[0].node);
  EXPECT_EQ(stmts[0].span, (Span{1, 1, 1}));
  EXPECT_EQ(assign.value->span, (Span{1, 14, 1}));
  const Binary& plus = std::get<Binary>(assign.value->node);
  EXPECT_EQ(plus.lhs->span, (Span{1, 7, 3}));  // a method call points at the method's name
  EXPECT_EQ(plus.rhs->span, (Span{1, 16, 1}));
}

TEST(Parser, SyntaxErrorsSayWhatAndWhere) {
  EXPECT_EQ(syntax_error("f(1, 2"), "1:7+0 expected ')' to close '(' at 1:2");
  EXPECT_EQ(syntax_error("x = [1, 2\ny = 3"), "2:1+1 expected ']' to close '[' at 1:5");
  EXPECT_EQ(syntax_error("x = 1 +"), "1:8+0 unexpected end of input");
  EXPECT_EQ(syntax_error("x = 1 +\ny"), "1:8+1 unexpected end of line");
  EXPECT_EQ(syntax_error("x y"), "1:3+1 unexpected token 'y'");
  EXPECT_EQ(syntax_error("x = )"), "1:5+1 unmatched ')'");
  // a closing bracket of the wrong kind is an error where it stands, as Python says it
  EXPECT_EQ(syntax_error("print((1]"), "1:9+1 closing parenthesis ']' does not match opening parenthesis '('");
  EXPECT_EQ(syntax_error("x = {'a': [1,\n 2)}"),
            "2:3+1 closing parenthesis ')' does not match opening parenthesis '[' on line 1");
  EXPECT_EQ(syntax_error("x.1"), "1:2+2 unexpected token '.1'");
  EXPECT_EQ(syntax_error("f(a=1, 2)"), "1:8+1 positional argument follows keyword argument");
  EXPECT_EQ(syntax_error("f(a=1, a=2)"), "1:8+1 keyword argument repeated: 'a'");
  EXPECT_EQ(syntax_error("f(x) = 1"), "1:1+1 cannot assign to this expression (a name, an attribute or a subscript can be)");
  EXPECT_EQ(syntax_error("True = 1"), "1:1+4 cannot assign to keyword 'True'");
  EXPECT_EQ(syntax_error("x = 99999999999999999999"),
            "1:5+20 integer literal 99999999999999999999 does not fit in 64 bits");
  EXPECT_EQ(syntax_error("x."), "1:3+0 expected an attribute name after '.', got end of input");
}

std::string repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; i++) out += s;
  return out;
}

// 200 levels of any kind of nesting parse; one more is a syntax error at the token that goes past the
// limit, never a stack overflow, however deep the input (the test also feeds 100000 levels).
TEST(Parser, NestingStopsAt200Levels) {
  const auto nested = [](int n) {
    return std::vector<std::string>{repeat("(", n) + "1" + repeat(")", n),
                                    repeat("[", n) + "1" + repeat("]", n),
                                    repeat("-", n) + "1",
                                    repeat("not ", n) + "1",
                                    repeat("2**", n) + "1",
                                    "1" + repeat(" + 1", n),
                                    "x" + repeat(".T", n),
                                    "x" + repeat("[0]", n),
                                    repeat("f(", n) + "1" + repeat(")", n)};
  };
  for (const std::string& ok : nested(200)) EXPECT_EQ(syntax_error(ok), "no error") << ok.substr(0, 20);
  for (const std::string& bad : nested(201)) {
    EXPECT_NE(syntax_error(bad).find(" expression nested too deeply (the limit is 200 levels)"), std::string::npos)
        << bad.substr(0, 20);
  }
  EXPECT_EQ(syntax_error(repeat("(", 201) + "1" + repeat(")", 201)),
            "1:202+1 expression nested too deeply (the limit is 200 levels)");
  EXPECT_EQ(syntax_error("x" + repeat(".T", 201)), "1:403+1 expression nested too deeply (the limit is 200 levels)");
  for (const std::string& deep : nested(100000)) EXPECT_NE(syntax_error(deep), "no error");
}

TEST(Diagnostic, ScriptErrorNamesFileLineColumnWithCaret) {
  EXPECT_EQ(format_error("t.tg", "y = x + tensor([1, 2, 3])", 3, 7, 1, "cannot broadcast (2,3) with (3,)"),
            "t.tg:3:7: error: cannot broadcast (2,3) with (3,)\n"
            "y = x + tensor([1, 2, 3])\n"
            "      ^\n");
  EXPECT_EQ(format_error("", "y = a.reshape(5)", 1, 7, 7, "bad shape"),
            "error: bad shape\n"
            "y = a.reshape(5)\n"
            "      ^~~~~~~\n");
  EXPECT_EQ(format_error("", "\tx ** q", 1, 6, 1, "m"), "error: m\n\tx ** q\n\t    ^\n");
  EXPECT_EQ(format_error("f.tg", "", 0, 0, 0, "no such file"), "f.tg:0:0: error: no such file\n");
}

// Of a line wider than a terminal, the 160 columns around the caret are shown, "..." for the rest.
TEST(Diagnostic, ALongLineIsShownAroundTheCaret) {
  const std::string line = repeat("abcdefghij", 100);
  const std::string caret_at_500 = format_error("", line, 1, 501, 3, "m");
  EXPECT_EQ(caret_at_500, "error: m\n..." + line.substr(420, 160) + "...\n" + std::string(83, ' ') + "^~~\n");
  EXPECT_EQ(format_error("", line, 1, 2, 1, "m"), "error: m\n" + line.substr(0, 160) + "...\n ^\n");
  EXPECT_EQ(format_error("", line, 1, 1000, 5, "m"),
            "error: m\n..." + line.substr(919) + "\n" + std::string(3 + 80, ' ') + "^\n");
}

TEST(Diagnostic, SourceLine) {
  EXPECT_EQ(source_line("a\r\nbb\ncc", 2), "bb");
  EXPECT_EQ(source_line("a\nbb\ncc", 3), "cc");
  EXPECT_EQ(source_line("a\nbb", 4), "");
}

// The text of each statement of a script (what :save keeps) starts at the offset of its start, a def's
// decorators included.
TEST(Diagnostic, LineIndexGivesTheOffsetOfEachStatementsSpan) {
  const std::string src = "x = 1; y = f(2,\n   3)\n\n  # note\nprint(x)\r\nz = [\n1]\n@d\ndef h(): pass\ndef k(): pass";
  const LineIndex lines(src);
  std::vector<std::string> starts;
  for (const Stmt& s : parse_program(src)) starts.push_back(src.substr(lines.offset(text_start(s)), 6));
  EXPECT_EQ(starts, (std::vector<std::string>{"x = 1;", "y = f(", "print(", "z = [\n", "@d\ndef", "def k("}));
  EXPECT_EQ(lines.offset(Span{1, 1, 1}), 0u);
  EXPECT_EQ(lines.offset(Span{2, 4, 1}), src.find("3)"));
  EXPECT_EQ(lines.offset(Span{3, 1, 0}), src.find("\n\n") + 1);  // an empty line
  // past the end of a line, of the last line, or of the text: the text's end at most
  EXPECT_EQ(lines.offset(Span{10, 50, 1}), src.size());
  EXPECT_EQ(lines.offset(Span{11, 1, 1}), src.size());
  EXPECT_EQ(LineIndex("").offset(Span{1, 1, 1}), 0u);
  EXPECT_EQ(LineIndex("abc\n").offset(Span{2, 1, 1}), 4u);
}

}  // namespace
}  // namespace tr::repl

namespace tr::repl {
namespace {

std::string block_error(std::string_view src) {
  try {
    parse_program(src);
  } catch (const SourceError& e) {
    return fmt::format("{}:{} {}", e.span().line, e.span().col, e.what());
  }
  return "no error";
}

TEST(LexerBlocks, IndentationMakesIndentAndDedentTokens) {
  EXPECT_EQ(texts(lex("if x:\n  y\n\n  # note\n  z\nw")),
            (std::vector<std::string>{"if", "x", ":", "NL", "IN", "y", "NL", "z", "NL", "DE", "w", "END"}));
  EXPECT_EQ(texts(lex("for i in r:\n\tif i:\n\t\tpass")),
            (std::vector<std::string>{"for", "i", "in", "r", ":", "NL", "IN", "if", "i", ":", "NL", "IN", "pass",
                                      "DE", "DE", "END"}));
  // inside brackets a line's indentation means nothing
  EXPECT_EQ(texts(lex("f(1,\n      2)")), (std::vector<std::string>{"f", "(", "1", ",", "2", ")", "END"}));
  EXPECT_EQ(texts(lex("x += 1; y //= 2")), (std::vector<std::string>{"x", "+=", "1", ";", "y", "//=", "2", "END"}));
}

TEST(LexerBlocks, AnUnindentToNoOuterLevelIsAnError) {
  EXPECT_EQ(block_error("if x:\n    y\n  z"), "3:3 unindent does not match any outer indentation level");
}

TEST(LexerBlocks, AReplWaitsForABlankLineAfterACompoundStatement) {
  EXPECT_TRUE(needs_more_input("def f(x):"));
  EXPECT_TRUE(needs_more_input("def f(x):\n  return x"));
  EXPECT_TRUE(needs_more_input("for i in range(3): print(i)"));
  EXPECT_TRUE(needs_more_input("@deco"));
  EXPECT_FALSE(needs_more_input("def f(x):\n  return x\n"));
  EXPECT_FALSE(needs_more_input("for i in range(3): print(i)\n"));
  EXPECT_FALSE(needs_more_input("x = 1"));
  EXPECT_FALSE(needs_more_input("if x:\n  y\n z\n"));  // an indentation error is shown now
}

TEST(ParserBlocks, CompoundStatements) {
  EXPECT_EQ(program("if a:\n  x = 1\nelif b: x = 2\nelse:\n  pass"),
            "(if a {(= x 1)} b {(= x 2)} else {(pass)})");
  EXPECT_EQ(program("while i < 3:\n  i += 1\n  if i == 2: break\n  continue"),
            "(while (< i 3) {(+= i 1); (if (== i 2) {(break)}); (continue)})");
  EXPECT_EQ(program("for i, x in pairs:\n  s = s + x"), "(for (tuple i x) pairs {(= s (+ s x))})");
  EXPECT_EQ(program("@deco\n@other(1)\ndef f(a, b=2):\n  return a + b"),
            "(def @deco @(call other 1) f (a b=2) {(return (+ a b))})");
  EXPECT_EQ(program("def g(): return"), "(def g () {(return)})");
  EXPECT_EQ(program("a, b = b, a"), "(= (tuple a b) (tuple b a))");
  EXPECT_EQ(program("a = b = 1"), "(= a b 1)");
  EXPECT_EQ(program("if x: y = 1; z = 2\nw"), "(if x {(= y 1); (= z 2)}) | w");
}

TEST(ParserBlocks, AFunctionKnowsItsLocalNames) {
  const std::vector<Stmt> stmts = parse_program("def f(a):\n  b = a\n  for i, j in x: c += 1\n  def g(): d = 1");
  const Def& d = *std::get<std::shared_ptr<const Def>>(stmts[0].node);
  EXPECT_EQ(d.locals, (std::vector<std::string>{"a", "b", "c", "g", "i", "j"}));
}

TEST(ParserBlocks, MisplacedStatementsAreSyntaxErrors) {
  EXPECT_EQ(block_error("return 1"), "1:1 'return' outside function");
  EXPECT_EQ(block_error("break"), "1:1 'break' outside loop");
  EXPECT_EQ(block_error("for i in x:\n  def f():\n    continue"), "3:5 'continue' outside loop");
  EXPECT_EQ(block_error("  x = 1"), "1:3 unexpected indent");
  EXPECT_EQ(block_error("if x:\ny"), "2:1 expected an indented block after 'if' on line 1");
  EXPECT_EQ(block_error("if x\n  y"), "1:5 expected ':' after the 'if' header");
  EXPECT_EQ(block_error("def f(a=1, b):\n  pass"), "1:12 parameter without a default follows parameter with a default");
  EXPECT_EQ(block_error("def f(a, a): pass"), "1:10 duplicate argument 'a' in function definition");
  EXPECT_EQ(block_error("@deco\nx = 1"), "2:1 a decorator must come before a def");
  EXPECT_EQ(block_error("for 1 in x: pass"), "1:5 cannot assign to this expression (a name, an attribute or a subscript can be)");
  EXPECT_EQ(block_error("f(x) += 1"),
            "1:1 this expression cannot be assigned to ('x += v' needs a name, an attribute or a subscript)");
}

}  // namespace
}  // namespace tr::repl
