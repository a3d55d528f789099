// Compound statements, assignment targets, and calls of a def's value: the part of a session that
// runs blocks.
#include <algorithm>

#include "core/base/interrupt.h"
#include "repl/call_stack.h"
#include "repl/indexing.h"
#include "repl/iteration.h"
#include "repl/nn.h"
#include "repl/operators.h"
#include "repl/jit_call.h"
#include "repl/restore.h"
#include "repl/session.h"
#include "repl/training.h"

namespace tr::repl {
namespace {

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
    Flow operator()(const Declare&) const { return Flow::Next; }  // read where names are bound and looked up
    Flow operator()(const With& n) const { return s.run_with(n); }
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
  Flow out = Flow::Next;
  for_each_item(iterable, f.iterable->span, [&](const Value& item) {
    assign(*f.target, item);
    const Flow flow = run_block(*f.body);
    if (flow == Flow::Return) out = flow;
    return flow != Flow::Break && flow != Flow::Return;
  });
  return out;
}

Session::Flow Session::run_with(const With& w) {
  const Value context = evaluate(*w.context);
  const ObjectRef* o = context.get_if<ObjectRef>();
  const TrainingContext* t = o ? std::get_if<TrainingContext>(&(*o)->kind) : nullptr;
  if (!t) {
    fail_at(w.context->span, "type", "'{}' object does not support the context manager protocol (with takes "
                                     "Context(TRAINING=1))", type_name(context));
  }
  const TrainingScope scope(t->training);
  if (w.target) assign(*w.target, NoneValue{});  // as tinygrad's Context, entering gives None
  return run_block(*w.body);
}

void Session::assign(const Expr& target, const Value& v) {
  if (const Name* n = std::get_if<Name>(&target.node)) return bind_name(n->id, v);
  if (const Attribute* a = std::get_if<Attribute>(&target.node)) return set_attribute(*a, v, target.span);
  if (const Subscript* s = std::get_if<Subscript>(&target.node)) return set_item(*s, v, target.span);
  const std::vector<ExprRef>& targets = std::holds_alternative<TupleExpr>(target.node)
                                            ? std::get<TupleExpr>(target.node).items
                                            : std::get<ListExpr>(target.node).items;
  const std::vector<Value>* items = sequence_items(v);
  const RangeValue* range = v.get_if<RangeValue>();  // unpacked without a list of its ints, which may be many
  if (!items && !range) fail_at(target.span, "type", "cannot unpack non-iterable {} object", type_name(v));
  const size_t n = items ? items->size() : static_cast<size_t>(range->size());
  if (n > targets.size()) fail_at(target.span, "value", "too many values to unpack (expected {})", targets.size());
  if (n < targets.size()) {
    fail_at(target.span, "value", "not enough values to unpack (expected {}, got {})", targets.size(), n);
  }
  for (size_t i = 0; i < targets.size(); i++) {
    assign(*targets[i], items ? (*items)[i] : Value(range->at(static_cast<int64_t>(i))));
  }
}

Value Session::make_function(const std::shared_ptr<const Def>& def) {
  auto f = std::make_shared<Function>();
  f->def = def;
  for (const DefParam& p : def->params) {
    f->defaults.push_back(p.default_value ? std::optional<Value>(evaluate(*p.default_value)) : std::nullopt);
  }
  f->closure = scope_;
  f->source = source_;
  return FunctionRef(std::move(f));
}

Value Session::define(const Def& d, const std::shared_ptr<const Def>& ref) {
  std::vector<std::optional<Value>> decorators;  // nullopt: @jit
  for (const ExprRef& e : d.decorators) decorators.push_back(is_jit_decorator(*e) ? std::nullopt : std::optional(evaluate(*e)));
  Value v = make_function(ref);
  // the decorator nearest the def applies first
  for (size_t i = decorators.size(); i-- > 0;) {
    const Span at_span = d.decorators[i]->span;
    if (!decorators[i]) {
      v = jitted(v, at_span);
      continue;
    }
    const ObjectRef* o = decorators[i]->get_if<ObjectRef>();
    if (const TrainingContext* t = o ? std::get_if<TrainingContext>(&(*o)->kind) : nullptr) {
      // @Context(TRAINING=1): every call of the function runs in training mode
      const FunctionRef* f = v.get_if<FunctionRef>();
      if (!f) fail_at(at_span, "type", "@Context decorates a function, not '{}'", type_name(v));
      auto trained = std::make_shared<Function>(**f);
      trained->training = t->training;
      v = FunctionRef(std::move(trained));
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
  if (stack_left() < kStackReserve) {
    fail_at(args.span, "recursion", "maximum recursion depth exceeded (the stack is full after {} nested calls)", depth_);
  }
  const auto param = [&](DefParamKind kind) {
    const auto p = std::find_if(d.params.begin(), d.params.end(), [&](const DefParam& q) { return q.kind == kind; });
    return p == d.params.end() ? nullptr : &*p;
  };
  std::vector<const DefParam*> positional;
  for (const DefParam& p : d.params)
    if (p.kind == DefParamKind::Positional) positional.push_back(&p);
  const DefParam* var_args = param(DefParamKind::VarArgs);
  const DefParam* var_keywords = param(DefParamKind::VarKeywords);
  const size_t n = positional.size();
  if (args.args.size() > n && !var_args) {
    fail_at(args.args[n].span, "type", "{}() takes {} but {} given", d.name, plural(n, "positional argument"),
            args.args.size() == 1 ? "1 was" : fmt::format("{} were", args.args.size()));
  }
  auto scope = std::make_shared<Scope>();
  scope->parent = f.closure;
  scope->def = &d;
  Tuple rest;
  for (size_t i = 0; i < args.args.size(); i++) {
    if (i < n) scope->names.insert_or_assign(positional[i]->name, args.args[i].value);
    else rest.items.push_back(args.args[i].value);
  }
  if (var_args) scope->names.insert_or_assign(var_args->name, std::move(rest));
  Dict extra;
  for (const KeywordValue& k : args.keywords) {
    const auto p = std::find_if(d.params.begin(), d.params.end(), [&](const DefParam& q) {
      return q.name == k.name && (q.kind == DefParamKind::Positional || q.kind == DefParamKind::KeywordOnly);
    });
    if (p == d.params.end()) {
      if (!var_keywords) fail_at(k.span, "type", "{}() got an unexpected keyword argument '{}'", d.name, k.name);
      dict_set(extra, k.name, k.value);
      continue;
    }
    if (!scope->names.emplace(k.name, k.value).second) {
      fail_at(k.span, "type", "{}() got multiple values for argument '{}'", d.name, k.name);
    }
  }
  if (var_keywords) scope->names.insert_or_assign(var_keywords->name, std::move(extra));
  std::vector<std::string> missing, missing_keywords;
  for (size_t i = 0; i < d.params.size(); i++) {
    const DefParam& p = d.params[i];
    if (p.kind == DefParamKind::VarArgs || p.kind == DefParamKind::VarKeywords || scope->names.contains(p.name)) continue;
    if (f.defaults[i]) {
      scope->names.emplace(p.name, *f.defaults[i]);
    } else {
      (p.kind == DefParamKind::KeywordOnly ? missing_keywords : missing).push_back(p.name);
    }
  }
  if (!missing.empty()) {
    fail_at(args.span, "type", "{}() missing {}: {}", d.name, plural(missing.size(), "required positional argument"),
            and_list(missing));
  }
  if (!missing_keywords.empty()) {
    fail_at(args.span, "type", "{}() missing {}: {}", d.name,
            plural(missing_keywords.size(), "required keyword-only argument"), and_list(missing_keywords));
  }
  std::optional<TrainingScope> training;
  if (f.training) training.emplace(*f.training);
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
