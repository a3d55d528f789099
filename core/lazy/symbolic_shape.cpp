#include "core/lazy/symbolic_shape.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/base/error.h"

namespace tr {

ExprRef make_variable(const std::string& name, int64_t lo, int64_t hi) {
  // The name is the kernel argument's in every backend's source: an identifier that no generated
  // name (they end in a digit: data0, gidx1, alu2) and no keyword of those languages can be.
  static const std::set<std::string> reserved{"int", "float", "double", "half", "bool", "char", "long", "short",
                                              "unsigned", "signed", "void", "const", "return", "if", "else", "for",
                                              "while", "do", "kernel", "global", "local", "constant", "core_id"};
  const bool identifier = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                          std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  if (!identifier || std::isdigit(static_cast<unsigned char>(name.back())) || name[0] == '_' || reserved.count(name))
    fail("value", "Variable name '{}' must be an identifier that does not end in a digit, start with '_' or name a type "
                  "or keyword", name);
  if (lo < 1 || hi <= lo) fail("value", "Variable {} needs 1 <= lo < hi, not [{}, {}]", name, lo, hi);
  return var(name, lo, hi);
}

void check_binding(const ExprRef& v, int64_t value) {
  if (value < v->min || value > v->max)
    fail("value", "cannot bind {} to {}: it must lie in [{}, {}]", v->name, value, v->min, v->max);
}

ExprRef scaled_size(const ExprRef& size, int64_t scale, int64_t offset) {
  if (scale < 1) fail("value", "a symbolic size grows with its Variable: {} times {} does not", render(size), scale);
  const ExprRef out = add(mul(size, scale), offset);
  if (out->min < 1)
    fail("value", "{} is not a size: it is {} when {} is {}", render(out), out->min, size_variable(out)->name, size_variable(out)->min);
  return out;
}

const ExprRef& size_variable(const ExprRef& size) {
  if (size->op == ExprOp::Var) return size;
  for (const ExprRef& s : size->srcs)
    if (!var_names(s).empty()) return size_variable(s);
  fail("value", "the symbolic size {} has no Variable", render(size));
}

Affine affine_of(const ExprRef& size) {
  const std::string& name = size_variable(size)->name;
  const int64_t at0 = evaluate(size, {{name, 0}});
  return {evaluate(size, {{name, 1}}) - at0, at0};
}

int64_t variable_value(const ExprRef& size, int64_t value) {
  const ExprRef& v = size_variable(size);
  const Affine f = affine_of(size);
  const int64_t n = (value - f.offset) / f.scale;
  if (n * f.scale + f.offset != value)
    fail("value", "a dim of size {} cannot be {}: no value of {} makes it", value, render(size), v->name);
  check_binding(v, n);
  return n;
}

std::vector<ExprRef> node_sym(const LazyNode& n) { return n.is_view() ? n.st().sym() : n.sym; }

namespace {

void merge_into(std::vector<ExprRef>& into, const std::vector<ExprRef>& from) {
  for (size_t k = 0; k < from.size(); ++k) {
    if (!from[k]) continue;
    if (into[k] && !same_expr(into[k], from[k]))
      fail("shape", "dim {} is {} in one operand and {} in another", k, render(into[k]), render(from[k]));
    into[k] = from[k];
  }
}

bool any_set(const std::vector<ExprRef>& sym) {
  return std::any_of(sym.begin(), sym.end(), [](const ExprRef& e) { return e != nullptr; });
}

}  // namespace

std::vector<ExprRef> derived_sym(Op op, const Shape& shape, const std::vector<LazyRef>& srcs, const LazyArg& arg) {
  if (op == Op::View) return {};
  std::vector<ExprRef> sym(shape.size());
  for (const LazyRef& s : srcs) {
    if (s->shape.size() != shape.size()) continue;
    std::vector<ExprRef> from = node_sym(*s);
    if (from.empty()) continue;
    if (is_reduce(op))
      for (const int axis : std::get<std::vector<int>>(arg)) from[axis] = nullptr;
    for (size_t k = 0; k < from.size(); ++k)
      if (shape[k] != s->shape[k]) from[k] = nullptr;
    merge_into(sym, from);
  }
  return any_set(sym) ? sym : std::vector<ExprRef>{};
}

LazyRef bind_sizes(const LazyRef& x, const std::vector<ExprRef>& sym) {
  if (sym.size() != x->shape.size()) fail("shape", "{} symbolic sizes given for shape {}", sym.size(), shape_str(x->shape));
  std::vector<ExprRef> merged = node_sym(*x);
  merged.resize(x->shape.size());
  for (size_t k = 0; k < sym.size(); ++k) {
    if (!sym[k]) continue;
    variable_value(sym[k], x->shape[k]);
    if (merged[k] && !same_expr(merged[k], sym[k]))
      fail("shape", "dim {} of {} is already {}, not {}", k, shape_str(x->shape), render(merged[k]), render(sym[k]));
    merged[k] = sym[k];
  }
  const ShapeTracker st = x->st();
  std::vector<View> views = st.views();
  const View& top = views.back();
  views.back() = View::make(top.shape, top.strides, top.offset, top.mask, std::move(merged));
  const ShapeTracker bound(std::move(views));
  if (bound == st) return x;
  const LazyRef base = base_of(x);
  return make_node(Op::View, base->dtype, bound.shape(), base->device, {base}, bound);
}

ShapeTracker unbind(const ShapeTracker& st, VarVals& vals) {
  std::vector<View> views;
  for (const View& v : st.views()) views.push_back(View::make(v.shape, v.strides, v.offset, v.mask));
  const View& top = st.views().back();
  if (top.sym.empty()) return ShapeTracker(std::move(views));
  Shape shape = top.shape;
  std::vector<ExprRef> sym = top.sym;
  std::optional<std::vector<Range>> mask = top.mask;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (!sym[k]) continue;
    // a dim that only part of is valid keeps its number: the part would depend on the value
    if (mask && (*mask)[k] != Range{0, shape[k]}) {
      sym[k] = nullptr;
      continue;
    }
    const std::string& name = size_variable(sym[k])->name;
    const int64_t value = variable_value(sym[k], shape[k]);
    const auto it = std::find_if(vals.begin(), vals.end(), [&](const auto& p) { return p.first == name; });
    if (it == vals.end()) {
      vals.insert(std::upper_bound(vals.begin(), vals.end(), std::make_pair(name, value)), {name, value});
    } else if (it->second != value) {
      fail("shape", "Variable {} is bound to {} and to {} in one kernel", name, it->second, value);
    }
    shape[k] = sym[k]->max;
    if (mask) (*mask)[k] = {0, shape[k]};
  }
  views.back() = View::make(std::move(shape), top.strides, top.offset, std::move(mask), std::move(sym));
  return ShapeTracker(std::move(views));
}

std::vector<ExprRef> kernel_vars(const std::vector<const ShapeTracker*>& trackers) {
  std::vector<ExprRef> out;
  for (const ShapeTracker* st : trackers)
    for (const ExprRef& size : st->sym()) {
      if (!size) continue;
      const ExprRef& e = size_variable(size);
      if (std::none_of(out.begin(), out.end(), [&](const ExprRef& o) { return o->name == e->name; })) out.push_back(e);
    }
  std::sort(out.begin(), out.end(), [](const ExprRef& a, const ExprRef& b) { return a->name < b->name; });
  return out;
}

std::optional<int64_t> value_of(const VarVals& vals, const std::string& name) {
  const auto it = std::find_if(vals.begin(), vals.end(), [&](const auto& p) { return p.first == name; });
  return it == vals.end() ? std::nullopt : std::optional<int64_t>(it->second);
}

void merge_vals(VarVals& into, const VarVals& from) {
  for (const auto& [name, value] : from) {
    const std::optional<int64_t> had = value_of(into, name);
    if (had && *had != value) fail("value", "Variable {} is bound to {} and to {}", name, *had, value);
    if (!had) into.insert(std::upper_bound(into.begin(), into.end(), std::make_pair(name, value)), {name, value});
  }
}

Shape rebound_shape(const Shape& shape, const std::vector<ExprRef>& sym, const VarVals& vals) {
  Shape out = shape;
  for (size_t k = 0; k < sym.size() && k < out.size(); ++k)
    if (sym[k]) {
      const std::string& name = size_variable(sym[k])->name;
      if (const std::optional<int64_t> v = value_of(vals, name)) out[k] = evaluate(sym[k], {{name, *v}});
    }
  return out;
}

ShapeTracker rebound(const ShapeTracker& st, const VarVals& vals) {
  const View& top = st.views().back();
  if (top.sym.empty()) return st;
  const Shape shape = rebound_shape(top.shape, top.sym, vals);
  std::optional<std::vector<Range>> mask = top.mask;
  if (mask)
    for (size_t k = 0; k < shape.size(); ++k)
      if ((*mask)[k] == Range{0, top.shape[k]}) (*mask)[k] = {0, shape[k]};
  std::vector<View> views = st.views();
  views.back() = View::make(shape, top.strides, top.offset, std::move(mask), top.sym);
  return ShapeTracker(std::move(views));
}

}  // namespace tr
