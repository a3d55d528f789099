#include "repl/session.h"

#include <algorithm>
#include <optional>

#include "repl/call_stack.h"
#include "repl/host_array.h"
#include "repl/operators.h"
#include "repl/value_format.h"

namespace tr::repl {
namespace {

// assert's notion of true: a Python truth value, or a tensor whose every element is true (numpy's all()).
bool holds(const Value& v, Span span) {
  const Tensor* t = v.get_if<Tensor>();
  if (!t) return at(span, [&] { return truthy(v); });
  const HostArray a = at(span, [&] { return fetch(*t); });
  return std::all_of(a.values.begin(), a.values.end(),
                     [](const ConstValue& c) { return std::visit([](auto x) { return x != 0; }, c); });
}

struct Failure {
  std::string sides;  // "11 == 12" for a comparison, else empty
  Span span;
};

// Why test is false, or nothing when it holds. A comparison is checked link by link, so that a chain
// of tensor comparisons asserts element-wise and the failing link's two sides can be shown.
std::optional<Failure> find_failure(Evaluator& ev, const Expr& test) {
  const Comparison* c = std::get_if<Comparison>(&test.node);
  if (!c) {
    if (holds(ev.eval(test), test.span)) return std::nullopt;
    return Failure{"", test.span};
  }
  Value lhs = ev.eval(*c->first);
  for (const CompareLink& link : c->links) {
    Value rhs = ev.eval(*link.rhs);
    const Value result = at(link.span, [&] { return apply_compare(link.op, lhs, rhs); });
    if (!holds(result, link.span)) {
      const std::string sides =
          at(link.span, [&] { return fmt::format("{} {} {}", str_value(lhs), spelling(link.op), str_value(rhs)); });
      return Failure{sides, link.span};
    }
    lhs = std::move(rhs);
  }
  return std::nullopt;
}

bool is_simple(const Stmt& s) {
  return std::holds_alternative<Assign>(s.node) || std::holds_alternative<AugAssign>(s.node) ||
         std::holds_alternative<ExprStmt>(s.node) || std::holds_alternative<Assert>(s.node) ||
         std::holds_alternative<Meta>(s.node) || std::holds_alternative<Pass>(s.node);
}

}  // namespace

Outcome Session::execute(const Stmt& stmt, const SourceRef& source) {
  Outcome outcome;
  run_on_call_stack([&] { outcome = execute_here(stmt, source); });
  return outcome;
}

Outcome Session::execute_here(const Stmt& stmt, const SourceRef& source) {
  source_ = source;
  scope_ = nullptr;
  depth_ = 0;
  if (is_simple(stmt)) {
    try {
      return simple(stmt);
    } catch (const SourceError&) {
      throw;
    } catch (const Error& e) {
      throw SourceError(e.kind(), e.what(), stmt.span);
    }
  }
  run(stmt);
  return std::monostate{};
}

Outcome Session::simple(const Stmt& stmt) {
  struct Visitor {
    Session& s;
    Outcome operator()(const Assign& a) const {
      const Value v = s.evaluate(*a.value);
      for (const ExprRef& t : a.targets) s.assign(*t, v);
      return std::monostate{};
    }
    Outcome operator()(const AugAssign& a) const {
      s.augmented(a);
      return std::monostate{};
    }
    Outcome operator()(const ExprStmt& e) const {
      Value v = s.evaluate(*e.expr);
      if (v.is<NoneValue>()) return std::monostate{};
      return Shown{std::move(v)};
    }
    Outcome operator()(const Assert& a) const { return s.check(a); }
    Outcome operator()(const Meta& m) const { return m; }
    Outcome operator()(const Pass&) const { return std::monostate{}; }
    // the rest are compound or control flow, which run() handles
    Outcome operator()(const If&) const { return std::monostate{}; }
    Outcome operator()(const While&) const { return std::monostate{}; }
    Outcome operator()(const For&) const { return std::monostate{}; }
    Outcome operator()(const std::shared_ptr<const Def>&) const { return std::monostate{}; }
    Outcome operator()(const Return&) const { return std::monostate{}; }
    Outcome operator()(const Break&) const { return std::monostate{}; }
    Outcome operator()(const Continue&) const { return std::monostate{}; }
    Outcome operator()(const Declare&) const { return std::monostate{}; }
    Outcome operator()(const With&) const { return std::monostate{}; }
  };
  return std::visit(Visitor{*this}, stmt.node);
}

void Session::nested_outcome(const Outcome& o, const Stmt& stmt) {
  if (std::holds_alternative<std::monostate>(o)) return;
  // as in Python's shell, values are shown from the statements of the top level's blocks only
  if (std::holds_alternative<Shown>(o) && scope_) return;
  if (nested_) return nested_(o, stmt);
  if (const AssertResult* a = std::get_if<AssertResult>(&o); a && !a->ok) throw SourceError("assert", a->message, a->span);
  if (std::holds_alternative<Meta>(o)) fail_at(stmt.span, "syntax", "a meta command needs tinyrepl's host to run it");
}

AssertResult Session::check(const Assert& a) {
  Evaluator ev(*this);
  const std::optional<Failure> failure = find_failure(ev, *a.test);
  if (!failure) return AssertResult{true, "", a.test->span, source_};
  std::string message = "assertion failed";
  if (a.message) message += ": " + str_value(ev.eval(*a.message));
  if (!failure->sides.empty()) message += a.message ? " (" + failure->sides + ")" : ": " + failure->sides;
  return AssertResult{false, message, failure->span, source_};
}

namespace {

bool declares(const std::vector<std::string>& names, std::string_view id) {
  return std::binary_search(names.begin(), names.end(), id);
}

}  // namespace

const Value* Session::lookup(std::string_view id, Span span) const {
  for (const Scope* s = scope_.get(); s; s = s->parent.get()) {
    if (s->def && declares(s->def->globals, id)) break;
    if (const auto it = s->names.find(id); it != s->names.end()) return &it->second;
    if (s->def && std::binary_search(s->def->locals.begin(), s->def->locals.end(), id)) {
      fail_at(span, "name", "local variable '{}' referenced before assignment", id);
    }
  }
  const auto it = globals_.find(id);
  return it == globals_.end() ? nullptr : &it->second;
}

std::vector<std::string> Session::variable_names() const {
  std::vector<std::string> out;
  for (const Scope* s = scope_.get(); s; s = s->parent.get())
    for (const auto& [n, v] : s->names) out.push_back(n);
  for (const auto& [n, v] : globals_) out.push_back(n);
  return out;
}

void Session::bind_name(const std::string& name, Value v) {
  const Def* d = scope_ ? scope_->def : nullptr;
  if (!scope_ || (d && declares(d->globals, name))) return void(globals_.insert_or_assign(name, std::move(v)));
  if (d && declares(d->nonlocals, name)) {
    for (Scope* s = scope_->parent.get(); s; s = s->parent.get()) {
      if (s->def && declares(s->def->locals, name)) return void(s->names.insert_or_assign(name, std::move(v)));
    }
    fail("syntax", "no binding for nonlocal '{}' found", name);
  }
  scope_->names.insert_or_assign(name, std::move(v));
}

}  // namespace tr::repl
