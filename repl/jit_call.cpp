// A @jit function's call. Its inputs are tinygrad's: the tensor arguments by position, then by keyword
// in name order, then the tensors inside list and tuple arguments (one level deep, so that a list of
// weights passed in is an input). Other arguments are not inputs: a replay keeps the values they had
// when the call was captured, as in tinygrad.
#include <algorithm>

#include "core/base/context.h"
#include "core/jit/jit.h"
#include "repl/jit_call.h"
#include "repl/session.h"
#include "repl/symbolic_variable.h"

namespace tr::repl {
namespace {

struct Inputs {
  std::vector<Tensor> tensors;
  std::vector<std::string> keys;  // a position or a keyword, for each argument that is a tensor
  VarVals bound;                  // the bound Variables among the arguments: a replay passes their values on
};

Inputs inputs_of(const CallArgs& args) {
  Inputs in;
  std::vector<const Value*> values;
  for (size_t i = 0; i < args.args.size(); i++) {
    values.push_back(&args.args[i].value);
    if (const Tensor* t = args.args[i].value.get_if<Tensor>()) {
      in.tensors.push_back(*t);
      in.keys.push_back(std::to_string(i));
    }
  }
  std::vector<const KeywordValue*> keywords;
  for (const KeywordValue& k : args.keywords) keywords.push_back(&k);
  std::sort(keywords.begin(), keywords.end(), [](const auto* a, const auto* b) { return a->name < b->name; });
  for (const KeywordValue* k : keywords) {
    values.push_back(&k->value);
    if (const Tensor* t = k->value.get_if<Tensor>()) {
      in.tensors.push_back(*t);
      in.keys.push_back(k->name);
    }
  }
  for (const Value* v : values)
    if (const SymbolicVariable* var = variable_of(*v); var && var->value)
      merge_vals(in.bound, {{var->var->name, *var->value}});
  for (const Value* v : values)
    if (const std::vector<Value>* items = sequence_items(*v))
      for (const Value& item : *items)
        if (const Tensor* t = item.get_if<Tensor>())
          if (std::none_of(in.tensors.begin(), in.tensors.end(), [&](const Tensor& u) { return u.is(*t); }))
            in.tensors.push_back(*t);
  return in;
}

// The tensors of a returned value, in order. A captured call must return tensors, None, or tuples and
// lists of them (tinygrad's rule; `strict`); the first call may return anything.
void returned_tensors(const Value& v, std::vector<Tensor>& out, bool strict, Span span) {
  if (const Tensor* t = v.get_if<Tensor>()) return out.push_back(*t);
  if (const std::vector<Value>* items = sequence_items(v)) {
    for (const Value& item : *items) returned_tensors(item, out, strict, span);
    return;
  }
  if (strict && !v.is<NoneValue>()) fail_at(span, "jit", "JIT return contains non-Tensor value of type {}", type_name(v));
}

// v with its tensors replaced by these, in order.
Value with_tensors(const Value& v, const std::vector<Tensor>& tensors, size_t& next) {
  if (v.is<Tensor>()) return tensors[next++];
  const std::vector<Value>* items = sequence_items(v);
  if (!items) return v;
  std::vector<Value> out;
  for (const Value& item : *items) out.push_back(with_tensors(item, tensors, next));
  if (v.is<Tuple>()) return Tuple{std::move(out)};
  return List{std::move(out)};
}

Value with_tensors(const Value& v, const std::vector<Tensor>& tensors) {
  size_t next = 0;
  return with_tensors(v, tensors, next);
}

}  // namespace

Value jitted(const Value& f, Span span) {
  const FunctionRef* def = f.get_if<FunctionRef>();
  if (!def) fail_at(span, "type", "@jit needs a function, not '{}'", type_name(f));
  if ((*def)->jit) fail_at(span, "type", "{} is already jitted", (*def)->def->name);
  auto out = std::make_shared<Function>(**def);
  out->jit = std::make_shared<JitFunction>(out->def->name);
  return FunctionRef(std::move(out));
}

bool Session::is_jit_decorator(const Expr& e) const {
  const Name* n = std::get_if<Name>(&e.node);
  return n && (n->id == "jit" || n->id == "TinyJit") && !lookup(n->id, e.span);
}

Value Session::call_jit(const Function& f, const CallArgs& args) {
  if (settings().jit == 0) return run_call(f, args);
  Jit& jit = f.jit->jit;
  if (jit_capturing())
    fail_at(args.span, "jit", "having TinyJit inside another TinyJit is not supported ({} was called while another was captured)",
            jit.name());
  const Inputs in = at(args.span, [&] { return inputs_of(args); });
  JitArgs prepared = at(args.span, [&] { return jit.prepare(in.tensors, in.keys, in.bound); });
  switch (jit.phase()) {
    case Jit::Phase::Run: {
      jit.begin_run();
      Value v;
      try {
        v = run_call(f, args);
        std::vector<Tensor> outs;
        returned_tensors(v, outs, false, args.span);
        if (!outs.empty()) at(args.span, [&] { Tensor::realize_together(outs); });
      } catch (...) {
        jit.abandon_run();
        throw;
      }
      jit.finish_run(prepared.vals);
      return v;
    }
    case Jit::Phase::Capture: {
      jit.begin_capture();
      Value v;
      std::vector<Tensor> outs;
      try {
        v = run_call(f, args);
        returned_tensors(v, outs, true, args.span);
      } catch (...) {
        jit.abandon_capture();
        throw;
      }
      at(args.span, [&] { jit.finish_capture(in.tensors, outs, std::move(prepared), in.keys); });
      f.jit->returned = v;
      return v;
    }
    case Jit::Phase::Replay: {
      const std::vector<Tensor> outs = at(args.span, [&] { return jit.replay(in.tensors, prepared.vals); });
      return with_tensors(f.jit->returned, outs);
    }
  }
  return NoneValue{};
}

}  // namespace tr::repl
