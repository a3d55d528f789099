#include "core/shape/symbolic.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/error.h"
#include "core/base/hash.h"

namespace tr {
namespace {

// Python's floor division and modulo. Every rewrite below is exact under these for any sign of the
// numerator. Callers only evaluate an index where its numerators are non-negative, where C's
// truncating ops agree; so a rewrite must also keep a numerator non-negative wherever the one it
// replaces was.
int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t floor_mod(int64_t a, int64_t b) { return a - b * floor_div(a, b); }
int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

ExprRef node(ExprOp op, int64_t value, int64_t min, int64_t max, std::vector<ExprRef> srcs) {
  return std::make_shared<const Expr>(Expr{op, value, {}, min, max, std::move(srcs)});
}

bool same(const ExprRef& a, const ExprRef& b) {
  if (a == b) return true;
  return a->op == b->op && a->value == b->value && a->name == b->name && a->node == b->node &&
         std::equal(a->srcs.begin(), a->srcs.end(), b->srcs.begin(), b->srcs.end(), same);
}

// An expression seen as sum(coef * base) + constant, the form that Add, Mul, Div, Mod and Lt
// rewrite on. Bases are never Const, Add or Mul, and no two are the same.
struct Term {
  ExprRef base;
  int64_t coef;
};
struct Linear {
  std::vector<Term> terms;
  int64_t constant = 0;
};

void accumulate(Linear& l, const ExprRef& e, int64_t scale) {
  if (e->op == ExprOp::Const) {
    l.constant += e->value * scale;
    return;
  }
  if (e->op == ExprOp::Add) {
    for (const ExprRef& s : e->srcs) accumulate(l, s, scale);
    return;
  }
  const bool scaled = e->op == ExprOp::Mul;
  const ExprRef& base = scaled ? e->srcs[0] : e;
  const int64_t coef = scaled ? e->value * scale : scale;
  const auto it = std::find_if(l.terms.begin(), l.terms.end(), [&](const Term& t) { return same(t.base, base); });
  if (it == l.terms.end()) {
    l.terms.push_back({base, coef});
  } else {
    it->coef += coef;
  }
}

Linear linear(const ExprRef& e) {
  Linear l;
  accumulate(l, e, 1);
  return l;
}

ExprRef build(const Linear& l) {
  std::vector<ExprRef> srcs;
  int64_t min = l.constant, max = l.constant;
  for (const auto& [base, coef] : l.terms) {
    if (coef == 0) continue;
    const int64_t lo = base->min * coef, hi = base->max * coef;
    srcs.push_back(coef == 1 ? base : node(ExprOp::Mul, coef, std::min(lo, hi), std::max(lo, hi), {base}));
    min += srcs.back()->min;
    max += srcs.back()->max;
  }
  if (srcs.empty()) return cnst(l.constant);
  if (srcs.size() == 1 && l.constant == 0) return srcs[0];
  if (l.constant != 0) srcs.push_back(cnst(l.constant));
  return node(ExprOp::Add, 0, min, max, std::move(srcs));
}

// The gcd of all coefficients (and of the constant when asked); 0 when there are none.
int64_t common_factor(const Linear& l, bool with_constant) {
  int64_t g = with_constant ? std::abs(l.constant) : 0;
  for (const Term& t : l.terms) g = std::gcd(g, t.coef);
  return g;
}

Linear divided(Linear l, int64_t g) {
  for (Term& t : l.terms) t.coef /= g;
  l.constant /= g;
  return l;
}

void check_divisor(const char* op, int64_t b) {
  if (b <= 0) fail("value", "{} by {}: the divisor must be positive", op, b);
}

}  // namespace

ExprRef cnst(int64_t v) { return node(ExprOp::Const, v, v, v, {}); }

ExprRef var(std::string name, int64_t min, int64_t max) { return node_var(-1, std::move(name), min, max); }

ExprRef node_var(int node, std::string name, int64_t min, int64_t max) {
  if (min > max) fail("value", "variable {} has empty bounds [{}, {}]", name, min, max);
  // A loop of one iteration is its only value.
  if (min == max) return cnst(min);
  return std::make_shared<const Expr>(Expr{ExprOp::Var, 0, std::move(name), min, max, {}, node});
}

ExprRef add(const ExprRef& a, const ExprRef& b) {
  Linear l = linear(a);
  accumulate(l, b, 1);
  return build(l);
}

ExprRef add(const ExprRef& a, int64_t b) { return add(a, cnst(b)); }

ExprRef mul(const ExprRef& a, int64_t b) {
  if (b == 1) return a;
  Linear l;
  accumulate(l, a, b);
  return build(l);
}

ExprRef floordiv(const ExprRef& a, int64_t b) {
  check_divisor("floordiv", b);
  if (b == 1) return a;
  const int64_t lo = floor_div(a->min, b), hi = floor_div(a->max, b);
  if (lo == hi) return cnst(lo);
  const Linear l = linear(a);
  // (b*q + r) // b == q + r // b for any integer q, so multiples of b leave the division whole.
  Linear whole, rest;
  for (const Term& t : l.terms) (t.coef % b == 0 ? whole : rest).terms.push_back(t);
  if (!whole.terms.empty()) {
    // The constant joins the quotient as far as leaves the rest's minimum in [0, b): never negative.
    whole = divided(whole, b);
    whole.constant = floor_div(build(rest)->min + l.constant, b);
    rest.constant = l.constant - whole.constant * b;
    return add(build(whole), floordiv(build(rest), b));
  }
  // g*y + k == g*(y + k//g) + k%g, and a remainder in [0, g) never crosses a multiple of b.
  if (const int64_t g = std::gcd(common_factor(l, false), b); g > 1) {
    Linear y = divided(l, g);
    y.constant = floor_div(l.constant, g);
    return floordiv(build(y), b / g);
  }
  if (a->op == ExprOp::Div) return floordiv(a->srcs[0], a->value * b);
  return node(ExprOp::Div, b, lo, hi, {a});
}

ExprRef mod(const ExprRef& a, int64_t b) {
  check_divisor("mod", b);
  if (b == 1) return cnst(0);
  // Inside one quotient the modulo is a plain shift.
  if (const int64_t q = floor_div(a->min, b); q == floor_div(a->max, b)) return add(a, -q * b);
  const Linear l = linear(a);
  // Multiples of b vanish under % b, so coefficients reduce modulo b, and the constant may be any
  // one congruent to it: the one that leaves the minimum in [0, b), never negative.
  Linear reduced;
  bool changed = false;
  for (const auto& [base, coef] : l.terms) {
    changed |= coef % b != coef;
    if (coef % b != 0) reduced.terms.push_back({base, coef % b});
  }
  reduced.constant = l.constant - floor_div(build(reduced)->min + l.constant, b) * b;
  changed |= reduced.constant != l.constant;
  if (changed) return mod(build(reduced), b);
  // (g*x) % (g*c) == g * (x % c).
  if (const int64_t g = std::gcd(common_factor(l, true), b); g > 1) return mul(mod(build(divided(l, g)), b / g), g);
  if (a->op == ExprOp::Mod && a->value % b == 0) return mod(a->srcs[0], b);
  return node(ExprOp::Mod, b, 0, b - 1, {a});
}

ExprRef lt(const ExprRef& a, int64_t b) {
  if (a->max < b) return cnst(1);
  if (a->min >= b) return cnst(0);
  const Linear l = linear(a);
  // For integers, g*y + k < b  <=>  y < ceil((b - k) / g): compare the bare terms.
  const int64_t g = common_factor(l, false);
  if (l.constant != 0 || g > 1) {
    Linear terms = divided(l, g);
    terms.constant = 0;
    return lt(build(terms), ceil_div(b - l.constant, g));
  }
  return node(ExprOp::Lt, b, 0, 1, {a});
}

ExprRef ge(const ExprRef& a, int64_t b) { return lt(mul(a, -1), 1 - b); }

// Conditions are 0/1 valued, so a true constant is the identity of AND.
ExprRef land(const ExprRef& a, const ExprRef& b) {
  if (a->op == ExprOp::Const) return a->value != 0 ? b : cnst(0);
  if (b->op == ExprOp::Const) return b->value != 0 ? a : cnst(0);
  std::vector<ExprRef> conds;
  for (const ExprRef& e : {a, b}) {
    for (const ExprRef& c : e->op == ExprOp::And ? e->srcs : std::vector<ExprRef>{e}) {
      if (std::none_of(conds.begin(), conds.end(), [&](const ExprRef& d) { return same(c, d); })) conds.push_back(c);
    }
  }
  if (conds.size() == 1) return conds[0];
  return node(ExprOp::And, 0, 0, 1, std::move(conds));
}

bool same_expr(const ExprRef& a, const ExprRef& b) { return same(a, b); }

size_t expr_hash(const ExprRef& e) {
  size_t h = hash_mix(static_cast<size_t>(e->op), std::hash<int64_t>{}(e->value));
  h = hash_mix(h, std::hash<std::string>{}(e->name));
  h = hash_mix(h, std::hash<int>{}(e->node));
  for (const ExprRef& s : e->srcs) h = hash_mix(h, expr_hash(s));
  return h;
}

std::vector<std::string> var_names(const ExprRef& e) {
  std::vector<std::string> out;
  if (e->op == ExprOp::Var) out.push_back(e->name);
  for (const ExprRef& s : e->srcs)
    for (std::string& n : var_names(s)) out.push_back(std::move(n));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool is_const(const ExprRef& e, int64_t v) { return e->op == ExprOp::Const && e->value == v; }

int64_t evaluate(const ExprRef& e, const std::vector<std::pair<std::string, int64_t>>& vars) {
  const auto src = [&](size_t i) { return evaluate(e->srcs[i], vars); };
  switch (e->op) {
    case ExprOp::Const: return e->value;
    case ExprOp::Var: {
      const auto it = std::find_if(vars.begin(), vars.end(), [&](const auto& v) { return v.first == e->name; });
      if (it == vars.end()) fail("value", "no value given for variable {}", e->name);
      return it->second;
    }
    case ExprOp::Add: {
      int64_t sum = 0;
      for (size_t i = 0; i < e->srcs.size(); ++i) sum += src(i);
      return sum;
    }
    case ExprOp::Mul: return src(0) * e->value;
    case ExprOp::Div: return floor_div(src(0), e->value);
    case ExprOp::Mod: return floor_mod(src(0), e->value);
    case ExprOp::Lt: return src(0) < e->value;
    case ExprOp::And: {
      for (size_t i = 0; i < e->srcs.size(); ++i) {
        if (src(i) == 0) return 0;
      }
      return 1;
    }
  }
  return 0;
}

std::string render(const ExprRef& e) {
  const auto binary = [&](const char* op) { return fmt::format("({}{}{})", render(e->srcs[0]), op, e->value); };
  const auto nary = [&](const char* op) {
    std::vector<std::string> parts;
    for (const ExprRef& s : e->srcs) parts.push_back(render(s));
    return fmt::format("({})", fmt::join(parts, op));
  };
  switch (e->op) {
    case ExprOp::Const: return std::to_string(e->value);
    case ExprOp::Var: return e->name;
    case ExprOp::Add: return nary("+");
    case ExprOp::Mul: return binary("*");
    case ExprOp::Div: return binary("/");
    case ExprOp::Mod: return binary("%");
    case ExprOp::Lt: return binary("<");
    case ExprOp::And: return nary("&&");
  }
  return {};
}

}  // namespace tr
