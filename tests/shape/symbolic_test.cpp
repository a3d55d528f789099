#include "core/shape/symbolic.h"

#include <algorithm>
#include <array>
#include <functional>
#include <random>

#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "core/base/error.h"

namespace tr {
namespace {

using Env = std::vector<std::pair<std::string, int64_t>>;

TEST(Symbolic, ConstantsFold) {
  EXPECT_TRUE(is_const(add(cnst(2), cnst(3)), 5));
  EXPECT_TRUE(is_const(mul(cnst(3), 4), 12));
  EXPECT_TRUE(is_const(floordiv(cnst(-7), 2), -4));
  EXPECT_TRUE(is_const(mod(cnst(-7), 2), 1));
  EXPECT_TRUE(is_const(lt(cnst(2), 3), 1));
  EXPECT_TRUE(is_const(var("x", 3, 3), 3));
}

TEST(Symbolic, AddFlattensAndCombinesLikeTerms) {
  const ExprRef x = var("x", 0, 9), y = var("y", 0, 9);
  EXPECT_EQ(render(add(mul(x, 3), mul(x, 2))), "(x*5)");
  EXPECT_EQ(render(add(add(add(x, 3), y), 4)), "(x+y+7)");
  EXPECT_EQ(render(add(add(y, 1), add(x, y))), "((y*2)+x+1)");
  EXPECT_TRUE(is_const(add(x, mul(x, -1)), 0));
  const ExprRef e = add(mul(x, 2), add(y, -3));
  EXPECT_EQ(e->min, -3);
  EXPECT_EQ(e->max, 24);
}

TEST(Symbolic, MulDistributesAndFolds) {
  const ExprRef x = var("x", 0, 9), y = var("y", -2, 3);
  EXPECT_EQ(render(mul(add(x, y), 2)), "((x*2)+(y*2))");
  EXPECT_EQ(render(mul(mul(x, 2), 3)), "(x*6)");
  EXPECT_TRUE(is_const(mul(x, 0), 0));
  EXPECT_EQ(mul(x, 1), x);
  const ExprRef n = mul(y, -3);
  EXPECT_EQ(n->min, -9);
  EXPECT_EQ(n->max, 6);
}

TEST(Symbolic, FloorDiv) {
  const ExprRef i = var("i", 0, 7), j = var("j", 0, 3), x = var("x", 0, 100);
  EXPECT_EQ(floordiv(x, 1), x);
  EXPECT_TRUE(is_const(floordiv(var("w", 4, 7), 4), 1));
  EXPECT_EQ(render(floordiv(add(mul(i, 4), j), 4)), "i");
  EXPECT_EQ(render(floordiv(add(mul(i, 4), var("k", 0, 7)), 4)), "(i+(k/4))");
  EXPECT_EQ(render(floordiv(floordiv(x, 3), 4)), "(x/12)");
  EXPECT_EQ(render(floordiv(mul(x, 2), 4)), "(x/2)");
  EXPECT_EQ(render(floordiv(add(mul(x, 2), 1), 4)), "(x/2)");
  EXPECT_EQ(render(floordiv(add(mul(x, 2), -1), 4)), "((x+-1)/2)");
  const ExprRef d = floordiv(x, 7);
  EXPECT_EQ(d->min, 0);
  EXPECT_EQ(d->max, 14);
}

TEST(Symbolic, Mod) {
  const ExprRef i = var("i", 0, 7), j = var("j", 0, 3), x = var("x", 0, 100);
  EXPECT_TRUE(is_const(mod(x, 1), 0));
  EXPECT_EQ(render(mod(add(mul(i, 4), j), 4)), "j");
  EXPECT_EQ(mod(j, 4), j);
  EXPECT_EQ(render(mod(var("w", 4, 7), 4)), "(w+-4)");
  EXPECT_EQ(render(mod(mod(x, 12), 4)), "(x%4)");
  EXPECT_TRUE(is_const(mod(mul(x, 4), 4), 0));
  EXPECT_EQ(render(mod(add(mul(x, 5), 6), 4)), "((x+2)%4)");
  EXPECT_EQ(render(mod(mul(x, 2), 4)), "((x%2)*2)");
  const ExprRef m = mod(x, 7);
  EXPECT_EQ(m->min, 0);
  EXPECT_EQ(m->max, 6);
}

TEST(Symbolic, LessThan) {
  const ExprRef x = var("x", 0, 3);
  EXPECT_TRUE(is_const(lt(x, 4), 1));
  EXPECT_TRUE(is_const(lt(x, 0), 0));
  EXPECT_TRUE(is_const(ge(x, 0), 1));
  EXPECT_TRUE(is_const(ge(x, 4), 0));
  EXPECT_EQ(render(lt(x, 3)), "(x<3)");
  EXPECT_EQ(render(lt(add(x, 2), 4)), "(x<2)");
  EXPECT_EQ(render(lt(mul(x, 4), 6)), "(x<2)");
  EXPECT_EQ(render(ge(x, 1)), "((x*-1)<0)");
}

TEST(Symbolic, And) {
  const ExprRef a = lt(var("a", 0, 9), 3), b = lt(var("b", 0, 9), 2);
  EXPECT_EQ(land(cnst(1), a), a);
  EXPECT_EQ(land(a, cnst(1)), a);
  EXPECT_TRUE(is_const(land(cnst(0), a), 0));
  EXPECT_TRUE(is_const(land(b, cnst(0)), 0));
  EXPECT_EQ(render(land(a, b)), "((a<3)&&(b<2))");
  EXPECT_EQ(render(land(land(a, b), a)), "((a<3)&&(b<2))");
}

TEST(Symbolic, RenderAndEvaluate) {
  const ExprRef g = var("gidx0", 0, 15), r = var("ridx0", 0, 3);
  const ExprRef e = add(mul(g, 4), r);
  EXPECT_EQ(render(e), "((gidx0*4)+ridx0)");
  EXPECT_EQ(render(lt(var("idx0", 0, 9), 3)), "(idx0<3)");
  EXPECT_EQ(evaluate(e, {{"gidx0", 2}, {"ridx0", 3}}), 11);
  EXPECT_EQ(evaluate(floordiv(add(g, -5), 4), {{"gidx0", 2}}), -1);
  EXPECT_THROW(evaluate(e, {{"gidx0", 2}}), Error);
}

TEST(Symbolic, BadArguments) {
  const ExprRef x = var("x", 0, 9);
  EXPECT_THROW(floordiv(x, 0), Error);
  EXPECT_THROW(mod(x, -2), Error);
  EXPECT_THROW(var("y", 3, 2), Error);
}

// Random expressions checked against an unsimplified evaluation at every point of the variable box.
// The naive side also notes whether any of its divisions saw a negative numerator.
using Point = std::vector<int64_t>;
using Naive = std::function<int64_t(const Point&, bool& negative)>;

struct Pair {
  ExprRef expr;
  Naive naive;
};

int64_t py_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && (a < 0)); }
int64_t py_mod(int64_t a, int64_t b) { return a - b * py_div(a, b); }

class Generator {
 public:
  Generator(std::mt19937& rng, const std::vector<ExprRef>& vars) : rng_(rng), vars_(vars) {}

  Pair expr(int depth) {
    if (depth == 0 || pick(0, 4) == 0) return leaf();
    // Small factors that share divisors, so that the rewrites on common factors get exercised.
    const int64_t c = pick(-4, 8);
    const int64_t factor = std::array<int64_t, 8>{-2, -1, 0, 1, 2, 3, 4, 6}[pick(0, 7)];
    const int64_t divisor = std::array<int64_t, 6>{1, 2, 3, 4, 6, 8}[pick(0, 5)];
    switch (pick(0, 7)) {
      case 0: {
        const Pair a = expr(depth - 1), b = expr(depth - 1);
        return {add(a.expr, b.expr), [=](const Point& p, bool& neg) { return a.naive(p, neg) + b.naive(p, neg); }};
      }
      case 1: {
        const Pair a = expr(depth - 1);
        return {add(a.expr, c), [=](const Point& p, bool& neg) { return a.naive(p, neg) + c; }};
      }
      case 2: {
        const Pair a = expr(depth - 1);
        return {mul(a.expr, factor), [=](const Point& p, bool& neg) { return a.naive(p, neg) * factor; }};
      }
      case 3: {
        const Pair a = expr(depth - 1);
        return {floordiv(a.expr, divisor), [=](const Point& p, bool& neg) {
                  const int64_t n = a.naive(p, neg);
                  neg |= n < 0;
                  return py_div(n, divisor);
                }};
      }
      case 4: {
        const Pair a = expr(depth - 1);
        return {mod(a.expr, divisor), [=](const Point& p, bool& neg) {
                  const int64_t n = a.naive(p, neg);
                  neg |= n < 0;
                  return py_mod(n, divisor);
                }};
      }
      case 5: return less_than(expr(depth - 1), c);
      case 6: {
        const Pair a = expr(depth - 1);
        return {ge(a.expr, c), [=](const Point& p, bool& neg) -> int64_t { return a.naive(p, neg) >= c; }};
      }
      default: {
        const Pair a = less_than(expr(depth - 1), pick(-2, 6)), b = less_than(expr(depth - 1), pick(-2, 6));
        return {land(a.expr, b.expr), [=](const Point& p, bool& neg) -> int64_t {
                  const int64_t x = a.naive(p, neg), y = b.naive(p, neg);
                  return x && y;
                }};
      }
    }
  }

 private:
  int64_t pick(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }

  Pair leaf() {
    if (pick(0, 3) == 0) {
      const int64_t c = pick(-3, 6);
      return {cnst(c), [=](const Point&, bool&) { return c; }};
    }
    const size_t k = pick(0, static_cast<int64_t>(vars_.size()) - 1);
    return {vars_[k], [=](const Point& p, bool&) { return p[k]; }};
  }

  static Pair less_than(const Pair& a, int64_t c) {
    return {lt(a.expr, c), [=](const Point& p, bool& neg) -> int64_t { return a.naive(p, neg) < c; }};
  }

  std::mt19937& rng_;
  const std::vector<ExprRef>& vars_;
};

// Every node's value must lie within its tracked bounds.
void expect_in_bounds(const ExprRef& e, const Env& env) {
  const int64_t v = evaluate(e, env);
  EXPECT_LE(e->min, v) << render(e);
  EXPECT_GE(e->max, v) << render(e);
  for (const ExprRef& s : e->srcs) expect_in_bounds(s, env);
}

bool has_negative_numerator(const ExprRef& e, const Env& env) {
  const bool divides = e->op == ExprOp::Div || e->op == ExprOp::Mod;
  return (divides && evaluate(e->srcs[0], env) < 0) ||
         std::any_of(e->srcs.begin(), e->srcs.end(), [&](const ExprRef& s) { return has_negative_numerator(s, env); });
}

TEST(Symbolic, RandomExpressionsMatchNaiveEvaluation) {
  std::mt19937 rng(1234);
  const auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  for (int n = 0; n < 20000 && !::testing::Test::HasFailure(); ++n) {
    // Mostly loop-like bounds from 0, sometimes negative ones to exercise floor semantics.
    Point lo, hi;
    std::vector<ExprRef> vars;
    const int64_t nvars = pick(2, 3);
    for (int64_t k = 0; k < nvars; ++k) {
      lo.push_back(pick(0, 2) == 0 ? pick(-4, 3) : 0);
      hi.push_back(lo.back() + pick(0, 6));
      vars.push_back(var(fmt::format("v{}", k), lo.back(), hi.back()));
    }
    Generator gen(rng, vars);
    const Pair p = gen.expr(static_cast<int>(pick(1, 5)));
    Point point = lo;
    for (bool more = true; more;) {
      Env env;
      for (int64_t k = 0; k < nvars; ++k) env.emplace_back(fmt::format("v{}", k), point[k]);
      bool negative = false;
      const std::string where = fmt::format("{} at {}", render(p.expr), point);
      EXPECT_EQ(evaluate(p.expr, env), p.naive(point, negative)) << where;
      expect_in_bounds(p.expr, env);
      // C's truncating division agrees with floor division wherever the unsimplified one had
      // non-negative numerators: the simplified one must keep them so.
      EXPECT_TRUE(negative || !has_negative_numerator(p.expr, env)) << where;
      more = false;
      for (int64_t k = 0; k < nvars && !more; ++k) {
        more = point[k] < hi[k];
        point[k] = more ? point[k] + 1 : lo[k];
      }
    }
  }
}

}  // namespace
}  // namespace tr
