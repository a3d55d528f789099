// List and tuple comprehensions: each runs in a scope of its own, as in Python 3, so its variables do
// not leak into the names around it; it reads those names as a nested function would.
#include "repl/iteration.h"
#include "repl/operators.h"
#include "repl/restore.h"
#include "repl/session.h"

namespace tr::repl {

Value Session::comprehension(const Comprehension& c) {
  auto scope = std::make_shared<Scope>();
  scope->parent = scope_;
  std::vector<Value> out;
  {
    const Restore<std::shared_ptr<Scope>> inside(scope_, std::move(scope));
    comprehend(c, 0, out);
  }
  if (c.kind == CompKind::List) return List{std::move(out)};
  return Tuple{std::move(out)};
}

void Session::comprehend(const Comprehension& c, size_t clause, std::vector<Value>& out) {
  if (clause == c.clauses.size()) return out.push_back(evaluate(*c.element));
  const CompFor& f = c.clauses[clause];
  for_each_item(evaluate(*f.iterable), f.iterable->span, [&](const Value& item) {
    assign(*f.target, item);
    const bool kept = std::all_of(f.conditions.begin(), f.conditions.end(), [&](const ExprRef& cond) {
      const Value v = evaluate(*cond);
      return at(cond->span, [&] { return truthy(v); });
    });
    if (kept) comprehend(c, clause + 1, out);
    return true;
  });
}

}  // namespace tr::repl
