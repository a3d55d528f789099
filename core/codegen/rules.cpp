#include "core/codegen/rules.h"

#include "core/ir/alu.h"

namespace tr {
namespace {

Pat any(int slot) { return Pat{.slot = slot}; }
Pat cnst(int slot) { return Pat{.is = Pat::Is::Const, .slot = slot}; }
Pat is(double v) { return Pat{.is = Pat::Is::ConstValue, .value = v}; }
Pat alu(Op op, std::vector<Pat> srcs, int slot = -1) {
  const bool commutative = op == Op::Add || op == Op::Mul || op == Op::And || op == Op::Or || op == Op::Max || op == Op::MaxNan;
  return Pat{.is = Pat::Is::Alu, .alu = op, .commutative = commutative && srcs.size() == 2, .srcs = std::move(srcs), .slot = slot};
}

bool integral(const UGraph& g, int n) { return !is_float(g[n].dtype); }
int64_t int_of(const UGraph& g, int n) { return as_int(*g.const_of(n)); }

}  // namespace

const std::vector<Rule>& symbolic_rules() {
  static const std::vector<Rule> rules{
      {"fold", "an op on constants is its value", Pat{.is = Pat::Is::AluOfConstants},
       [](UGraph& g, int n, const Captures&) -> std::optional<int> {
         const UOp& u = g[n];
         std::vector<ConstValue> values;
         for (int s : u.srcs) values.push_back(*g.const_of(s));
         const Op op = u.kind == UOpKind::Cast ? Op::Cast : u.alu;
         return g.cnst(exec_alu(op, u.dtype, g[u.srcs.back()].dtype, values), u.dtype, u.vec);
       }},
      {"add zero", "x + 0 = x", alu(Op::Add, {any(0), is(0)}),
       [](UGraph&, int, const Captures& c) -> std::optional<int> { return c.at(0); }},
      {"mul one", "x * 1 = x", alu(Op::Mul, {any(0), is(1)}),
       [](UGraph&, int, const Captures& c) -> std::optional<int> { return c.at(0); }},
      {"mul zero", "x * 0 = 0 for integers (a float x may be nan or inf)", alu(Op::Mul, {any(0), is(0)}),
       [](UGraph& g, int n, const Captures&) -> std::optional<int> {
         if (!integral(g, n)) return std::nullopt;
         return g.cnst(int64_t{0}, g[n].dtype, g[n].vec);
       }},
      {"div one", "x // 1 = x", Pat{.is = Pat::Is::Alu, .alu = Op::IDiv, .srcs = {any(0), is(1)}},
       [](UGraph&, int, const Captures& c) -> std::optional<int> { return c.at(0); }},
      {"mod one", "x % 1 = 0", Pat{.is = Pat::Is::Alu, .alu = Op::Mod, .srcs = {any(0), is(1)}},
       [](UGraph& g, int n, const Captures&) -> std::optional<int> { return g.cnst(int64_t{0}, g[n].dtype, g[n].vec); }},
      {"and true", "b and true = b", alu(Op::And, {any(0), is(1)}),
       [](UGraph& g, int n, const Captures& c) -> std::optional<int> {
         if (g[n].dtype != DType::Bool) return std::nullopt;
         return c.at(0);
       }},
      {"where constant", "where(true, a, b) = a, where(false, a, b) = b",
       Pat{.is = Pat::Is::Alu, .alu = Op::Where, .srcs = {cnst(0), any(1), any(2)}},
       [](UGraph& g, int, const Captures& c) -> std::optional<int> {
         return as_int(*g.const_of(c.at(0))) ? c.at(1) : c.at(2);
       }},
      {"constants together", "(x + a) + b = x + (a + b) for integers", alu(Op::Add, {alu(Op::Add, {any(0), cnst(1)}), cnst(2)}),
       [](UGraph& g, int n, const Captures& c) -> std::optional<int> {
         if (!integral(g, n)) return std::nullopt;
         const DType t = g[n].dtype;
         return g.alu(Op::Add, t, {c.at(0), g.cnst(int_of(g, c.at(1)) + int_of(g, c.at(2)), t)}, g[n].vec);
       }},
      {"constant last", "(x + a) + y = (x + y) + a for integers", alu(Op::Add, {alu(Op::Add, {any(0), cnst(1)}), any(2)}),
       [](UGraph& g, int n, const Captures& c) -> std::optional<int> {
         if (!integral(g, n) || g.const_of(c.at(2))) return std::nullopt;
         const DType t = g[n].dtype;
         return g.alu(Op::Add, t, {g.alu(Op::Add, t, {c.at(0), c.at(2)}, g[n].vec), c.at(1)}, g[n].vec);
       }},
      {"constant right", "a + x = x + a", Pat{.is = Pat::Is::Alu, .alu = Op::Add, .srcs = {cnst(0), any(1)}},
       [](UGraph& g, int n, const Captures& c) -> std::optional<int> {
         if (g.const_of(c.at(1))) return std::nullopt;
         return g.alu(Op::Add, g[n].dtype, {c.at(1), c.at(0)}, g[n].vec);
       }},
      {"scales together", "(x * a) * b = x * (a * b) for integers", alu(Op::Mul, {alu(Op::Mul, {any(0), cnst(1)}), cnst(2)}),
       [](UGraph& g, int n, const Captures& c) -> std::optional<int> {
         if (!integral(g, n)) return std::nullopt;
         const DType t = g[n].dtype;
         return g.alu(Op::Mul, t, {c.at(0), g.cnst(int_of(g, c.at(1)) * int_of(g, c.at(2)), t)}, g[n].vec);
       }},
      {"lane of a vector", "gep(vectorize(x0, x1, ...), i) = xi", Pat{.is = Pat::Is::Gep},
       [](UGraph& g, int n, const Captures&) -> std::optional<int> {
         const int v = g[n].srcs[0];
         if (g[v].kind != UOpKind::Vectorize) return std::nullopt;
         return g[v].srcs[g[n].lane];
       }},
  };
  return rules;
}

namespace {

bool match(const Pat& p, const UGraph& g, int n, Captures& c);

bool match_srcs(const std::vector<Pat>& ps, const UGraph& g, const std::vector<int>& srcs, Captures& c) {
  if (ps.size() != srcs.size()) return false;
  for (size_t i = 0; i < ps.size(); i++)
    if (!match(ps[i], g, srcs[i], c)) return false;
  return true;
}

bool match(const Pat& p, const UGraph& g, int n, Captures& c) {
  const UOp& u = g[n];
  bool ok = false;
  switch (p.is) {
    case Pat::Is::Any: ok = true; break;
    case Pat::Is::Const: ok = u.kind == UOpKind::Const; break;
    case Pat::Is::ConstValue: ok = u.kind == UOpKind::Const && as_double(u.value) == p.value; break;
    case Pat::Is::Gep: ok = u.kind == UOpKind::Gep; break;
    case Pat::Is::AluOfConstants:
      ok = (u.kind == UOpKind::Alu || u.kind == UOpKind::Cast) &&
           std::all_of(u.srcs.begin(), u.srcs.end(), [&](int s) { return g.const_of(s) && g[s].vec == 1; }) && u.vec == 1;
      break;
    case Pat::Is::AnyAlu: ok = u.kind == UOpKind::Alu; break;
    case Pat::Is::Cast: ok = u.kind == UOpKind::Cast && match_srcs(p.srcs, g, u.srcs, c); break;
    case Pat::Is::Alu:
      if (u.kind != UOpKind::Alu || u.alu != p.alu) break;
      if (Captures tried = c; match_srcs(p.srcs, g, u.srcs, tried)) {
        c = std::move(tried);
        ok = true;
      } else if (p.commutative) {
        Captures swapped = c;
        if (match_srcs(p.srcs, g, {u.srcs[1], u.srcs[0]}, swapped)) {
          c = std::move(swapped);
          ok = true;
        }
      }
      break;
  }
  if (ok && p.slot >= 0) c[p.slot] = n;
  return ok;
}

}  // namespace

int simplify_top(UGraph& g, int n, const std::vector<Rule>& rules) {
  for (bool changed = true; changed;) {
    changed = false;
    for (const Rule& r : rules) {
      Captures c{-1, -1, -1};
      if (!match(r.pattern, g, n, c)) continue;
      if (const std::optional<int> to = r.replace(g, n, c); to && *to != n) {
        n = *to;
        changed = true;
        break;
      }
    }
  }
  return n;
}

int simplify_node(UGraph& g, int n, std::map<int, int>& done) {
  if (const auto it = done.find(n); it != done.end()) return it->second;
  UOp u = g[n];
  for (int& s : u.srcs) s = simplify_node(g, s, done);
  return done[n] = simplify_top(g, g.add(std::move(u)), symbolic_rules());
}

std::pair<int, int64_t> split_offset(const UGraph& g, int n) {
  if (const ConstValue* c = g.const_of(n)) return {-1, as_int(*c)};
  const UOp& u = g[n];
  if (u.kind == UOpKind::Alu && u.alu == Op::Add && g.const_of(u.srcs[1])) return {u.srcs[0], as_int(*g.const_of(u.srcs[1]))};
  return {n, 0};
}

}  // namespace tr
