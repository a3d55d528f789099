#include "repl/session.h"

#include <algorithm>
#include <optional>

#include "repl/host_array.h"
#include "repl/operators.h"
#include "repl/source_error.h"
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
std::optional<Failure> find_failure(const Evaluator& ev, const Expr& test) {
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

}  // namespace

Outcome Session::execute(const Stmt& stmt) {
  struct Visitor {
    Session& s;
    Outcome operator()(const Assign& a) const {
      Value v = s.evaluate(*a.value);
      s.env_.insert_or_assign(a.name, std::move(v));
      return std::monostate{};
    }
    Outcome operator()(const ExprStmt& e) const {
      Value v = s.evaluate(*e.expr);
      if (v.is<NoneValue>()) return std::monostate{};
      return Shown{std::move(v)};
    }
    Outcome operator()(const Assert& a) const { return s.check(a); }
    Outcome operator()(const Meta& m) const { return m; }
  };
  return std::visit(Visitor{*this}, stmt.node);
}

AssertResult Session::check(const Assert& a) const {
  const Evaluator ev(env_, print_);
  const std::optional<Failure> failure = find_failure(ev, *a.test);
  if (!failure) return AssertResult{true, "", a.test->span};
  std::string message = "assertion failed";
  if (a.message) message += ": " + str_value(ev.eval(*a.message));
  if (!failure->sides.empty()) message += a.message ? " (" + failure->sides + ")" : ": " + failure->sides;
  return AssertResult{false, message, failure->span};
}

}  // namespace tr::repl
