// Compound statements, assignment targets, and calls of a def's value: the part of a session that
// runs blocks.
#include <algorithm>

#include "core/interrupt.h"
#include "repl/operators.h"
#include "repl/jit_call.h"
#include "repl/session.h"

namespace tr::repl {
namespace {

// What a for loop walks: a tuple's or list's items, a tensor's rows, a string's characters.
std::vector<Value> iteration_items(const Value& v, Span span) {
  if (const std::vector<Value>* items = sequence_items(v)) return *items;
  if (const Tensor* t = v.get_if<Tensor>()) {
    if (t->ndim() == 0) fail_at(span, "type", "iteration over a 0-d tensor");
    std::vector<Value> rows;
    for (int64_t i = 0; i < t->shape()[0]; i++) rows.emplace_back(at(span, [&] { return t->getitem({i}); }));
    return rows;
  }
  if (const std::string* s = v.get_if<std::string>()) {
    std::vector<Value> chars;
    for (char c : *s) chars.emplace_back(std::string(1, c));
    return chars;
  }
  fail_at(span, "type", "'{}' object is not iterable", type_name(v));
}

std::string plural(size_t n, std::string_view word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

// "'a'", "'a' and 'b'", "'a', 'b' and 'c'", as Python lists missing arguments.
std::string and_list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); i++) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += "'" + names[i] + "'";
  }
  return out;
}

// Puts a member back when a scope is left, however it is left.
template <typename T>
class Restore {
 public:
  Restore(T& member, T value) : member_(member), saved_(std::move(member)) { member_ = std::move(value); }
  ~Restore() { member_ = std::move(saved_); }
  Restore(const Restore&) = delete;
  Restore& operator=(const Restore&) = delete;

 private:
  T& member_;
  T saved_;
};

}  // namespace

Session::Flow Session::run_block(const std::vector<Stmt>& body) {
  for (const Stmt& s : body) {
    const Flow f = run(s);
    if (f != Flow::Next) return f;
  }
  return Flow::Next;
}

Session::Flow Session::run(const Stmt& stmt) {
  struct Visitor {
    Session& s;
    const Stmt& stmt;
    bool test(const ExprRef& e) const {
      const Value v = s.evaluate(*e);
      return at(e->span, [&] { return truthy(v); });
    }
    Flow operator()(const If& n) const {
      for (const IfBranch& b : n.branches)
        if (test(b.test)) return s.run_block(*b.body);
      return n.else_body ? s.run_block(*n.else_body) : Flow::Next;
    }
    Flow operator()(const While& n) const {
      while (test(n.test)) {
        check_interrupt();
        const Flow f = s.run_block(*n.body);
        if (f == Flow::Break) break;
        if (f == Flow::Return) return f;
      }
      return Flow::Next;
    }
    Flow operator()(const For& n) const { return s.run_for(n); }
    Flow operator()(const std::shared_ptr<const Def>& d) const {
      s.bind_name(d->name, s.define(*d, d));
      return Flow::Next;
    }
    Flow operator()(const Return& n) const {
      s.returned_ = n.value ? s.evaluate(*n.value) : Value{};
      return Flow::Return;
    }
    Flow operator()(const Break&) const { return Flow::Break; }
    Flow operator()(const Continue&) const { return Flow::Continue; }
    Flow simple() const {
      s.nested_outcome(s.simple(stmt), stmt);
      return Flow::Next;
    }
    Flow operator()(const Assign&) const { return simple(); }
    Flow operator()(const AugAssign&) const { return simple(); }
    Flow operator()(const ExprStmt&) const { return simple(); }
    Flow operator()(const Assert&) const { return simple(); }
    Flow operator()(const Meta&) const { return simple(); }
    Flow operator()(const Pass&) const { return Flow::Next; }
  };
  try {
    return std::visit(Visitor{*this, stmt}, stmt.node);
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    throw SourceError(e.kind(), e.what(), stmt.span);
  }
}

Session::Flow Session::run_for(const For& f) {
  const Value iterable = evaluate(*f.iterable);
  for (const Value& item : iteration_items(iterable, f.iterable->span)) {
    check_interrupt();
    assign(*f.target, item);
    const Flow flow = run_block(*f.body);
    if (flow == Flow::Break) break;
    if (flow == Flow::Return) return flow;
  }
  return Flow::Next;
}

void Session::assign(const Expr& target, const Value& v) {
  if (const Name* n = std::get_if<Name>(&target.node)) return bind_name(n->id, v);
  const std::vector<ExprRef>& targets = std::holds_alternative<TupleExpr>(target.node)
                                            ? std::get<TupleExpr>(target.node).items
                                            : std::get<ListExpr>(target.node).items;
  const std::vector<Value>* items = sequence_items(v);
  if (!items) fail_at(target.span, "type", "cannot unpack non-iterable {} object", type_name(v));
  if (items->size() > targets.size()) {
    fail_at(target.span, "value", "too many values to unpack (expected {})", targets.size());
  }
  if (items->size() < targets.size()) {
    fail_at(target.span, "value", "not enough values to unpack (expected {}, got {})", targets.size(), items->size());
  }
  for (size_t i = 0; i < targets.size(); i++) assign(*targets[i], (*items)[i]);
}

Value Session::define(const Def& d, const std::shared_ptr<const Def>& ref) {
  std::vector<std::optional<Value>> decorators;  // nullopt: @jit
  for (const ExprRef& e : d.decorators) decorators.push_back(is_jit_decorator(*e) ? std::nullopt : std::optional(evaluate(*e)));
  auto f = std::make_shared<Function>();
  f->def = ref;
  for (const DefParam& p : d.params) {
    f->defaults.push_back(p.default_value ? std::optional<Value>(evaluate(*p.default_value)) : std::nullopt);
  }
  f->closure = scope_;
  f->source = source_;
  Value v = FunctionRef(std::move(f));
  // the decorator nearest the def applies first
  for (size_t i = decorators.size(); i-- > 0;) {
    const Span at_span = d.decorators[i]->span;
    if (!decorators[i]) {
      v = jitted(v, at_span);
      continue;
    }
    const FunctionRef* g = decorators[i]->get_if<FunctionRef>();
    if (!g) fail_at(at_span, "type", "a decorator must be a function, not '{}'", type_name(*decorators[i]));
    v = call(**g, CallArgs{(*g)->def->name, at_span, {Arg{v, at_span, ""}}, {}});
  }
  return v;
}

Value Session::call(const Function& f, const CallArgs& args) { return f.jit ? call_jit(f, args) : run_call(f, args); }

Value Session::run_call(const Function& f, const CallArgs& args) {
  const Def& d = *f.def;
  if (depth_ >= kMaxCallDepth) {
    fail_at(args.span, "recursion", "maximum recursion depth exceeded ({} nested calls)", kMaxCallDepth);
  }
  const size_t n = d.params.size();
  if (args.args.size() > n) {
    fail_at(args.args[n].span, "type", "{}() takes {} but {} given", d.name, plural(n, "positional argument"),
            args.args.size() == 1 ? "1 was" : fmt::format("{} were", args.args.size()));
  }
  auto scope = std::make_shared<Scope>();
  scope->parent = f.closure;
  scope->def = &d;
  for (size_t i = 0; i < args.args.size(); i++) scope->names.insert_or_assign(d.params[i].name, args.args[i].value);
  for (const KeywordValue& k : args.keywords) {
    const auto p = std::find_if(d.params.begin(), d.params.end(), [&](const DefParam& q) { return q.name == k.name; });
    if (p == d.params.end()) fail_at(k.span, "type", "{}() got an unexpected keyword argument '{}'", d.name, k.name);
    if (!scope->names.emplace(k.name, k.value).second) {
      fail_at(k.span, "type", "{}() got multiple values for argument '{}'", d.name, k.name);
    }
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < n; i++) {
    if (scope->names.contains(d.params[i].name)) continue;
    if (f.defaults[i]) {
      scope->names.emplace(d.params[i].name, *f.defaults[i]);
    } else {
      missing.push_back(d.params[i].name);
    }
  }
  if (!missing.empty()) {
    fail_at(args.span, "type", "{}() missing {}: {}", d.name, plural(missing.size(), "required positional argument"),
            and_list(missing));
  }
  const CallSite site{source_, args.span};
  Flow flow = Flow::Next;
  try {
    const Restore<std::shared_ptr<Scope>> in_scope(scope_, std::move(scope));
    const Restore<SourceRef> in_source(source_, f.source);
    const Restore<int> deeper(depth_, depth_ + 1);
    flow = run_block(*d.body);
  } catch (SourceError& e) {
    e.add_call(f.source, site);
    throw;
  }
  if (flow != Flow::Return) return NoneValue{};
  return std::exchange(returned_, Value{});
}

}  // namespace tr::repl
