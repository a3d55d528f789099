// help(x.softmax), x.softmax?, ?softmax, help("notes"): IPython's help, from the help table. The target is
// named, not called: x is evaluated (lazily: nothing runs) only to learn whose member the name is.
#include <fmt/format.h>

#include "repl/convert.h"
#include "repl/evaluator.h"
#include "repl/help_table.h"
#include "repl/help_text.h"
#include "repl/methods.h"
#include "repl/nn.h"
#include "repl/session.h"
#include "repl/source_error.h"
#include "repl/suggest.h"
#include "repl/value_format.h"

namespace tr::repl {
namespace {

// Where the help of an object that is not a tensor is: the prefix of its members' entries ("Optimizer" for
// Optimizer.step) and the entry of what made it.
struct ObjectHelp {
  std::string_view members;
  HelpKind kind;
  std::string_view entry;
};

ObjectHelp object_help_of(const Object& o) {
  struct Visitor {
    ObjectHelp operator()(const LinearLayer&) const { return {"Linear", HelpKind::NnFunction, "nn.Linear"}; }
    ObjectHelp operator()(const Conv2dLayer&) const { return {"Conv2d", HelpKind::NnFunction, "nn.Conv2d"}; }
    ObjectHelp operator()(const BatchNormLayer&) const { return {"BatchNorm", HelpKind::NnFunction, "nn.BatchNorm"}; }
    ObjectHelp operator()(const LayerNormLayer&) const { return {"LayerNorm", HelpKind::NnFunction, "nn.LayerNorm"}; }
    ObjectHelp operator()(const EmbeddingLayer&) const { return {"Embedding", HelpKind::NnFunction, "nn.Embedding"}; }
    ObjectHelp operator()(const Optimizer& opt) const {
      if (opt.kind == OptimizerKind::SGD) return {"Optimizer", HelpKind::NnFunction, "nn.optim.SGD"};
      return {"Optimizer", HelpKind::NnFunction, opt.weight_decay != 0 ? "nn.optim.AdamW" : "nn.optim.Adam"};
    }
    ObjectHelp operator()(const TrainingContext&) const { return {"Context", HelpKind::Function, "Context"}; }
    ObjectHelp operator()(const SymbolicVariable&) const { return {"Variable", HelpKind::Function, "Variable"}; }
  };
  return std::visit(Visitor{}, o.kind);
}

std::string owner_text(const ObjectHelp& h) {
  const HelpEntry* e = find_help(h.kind, h.entry);
  return e ? entry_text(h.kind, *e) : "";
}

// A member's entry of this kind and name, or "" when it has none.
std::string entry_or_empty(HelpKind kind, std::string_view name) {
  const HelpEntry* e = find_help(kind, name);
  return e ? entry_text(kind, *e) : "";
}

// "def f(a, b=2, *rest)": a def's parameters with the defaults it was defined with.
std::string def_signature(const Function& f) {
  std::vector<std::string> params;
  for (size_t i = 0; i < f.def->params.size(); i++) {
    const DefParam& p = f.def->params[i];
    std::string s = p.kind == DefParamKind::VarArgs ? "*" : p.kind == DefParamKind::VarKeywords ? "**" : "";
    s += p.name;
    if (i < f.defaults.size() && f.defaults[i]) s += "=" + repr_value(*f.defaults[i]);
    params.push_back(std::move(s));
  }
  return fmt::format("def {}({})", f.def->name, fmt::join(params, ", "));
}

// Python's help prints and gives None; print adds the line's end.
Value printed(const PrintSink& print, std::string text, Span span) {
  if (text.ends_with('\n')) text.pop_back();
  print(make_print_event({Value(std::move(text))}, span));
  return NoneValue{};
}

}  // namespace

std::string Evaluator::help(const Expr& e) const {
  if (const Literal* l = std::get_if<Literal>(&e.node))
    if (const std::string* topic = std::get_if<std::string>(&l->value))
      return at(e.span, [&] { return help_text(*topic); });
  if (const Name* n = std::get_if<Name>(&e.node)) {
    if (const Value* v = session_.lookup(n->id, e.span)) return value_help(n->id, *v);
    try {
      return help_text(n->id);
    } catch (const Error& err) {
      fail_at(e.span, "name", "{}", err.what());
    }
  }
  if (const Attribute* a = std::get_if<Attribute>(&e.node)) return attribute_help(*a, e.span);
  return value_help("", eval(e));
}

std::string Evaluator::attribute_help(const Attribute& a, Span span) const {
  if (is_namespace(*a.object, kDTypes)) {
    if (const HelpEntry* d = find_help(HelpKind::DType, a.name)) return entry_text(HelpKind::DType, *d);
    fail_at(span, "name", "dtypes has no dtype '{}'{}", a.name, did_you_mean(a.name, dtype_names()));
  }
  if (is_namespace(*a.object, kTensor)) {
    // Tensor.zeros is a function; Tensor.softmax the method, as tinygrad's unbound Tensor.softmax
    const std::string out = entry_or_empty(HelpKind::Function, a.name) + entry_or_empty(HelpKind::Method, a.name) +
                            entry_or_empty(HelpKind::Attribute, a.name);
    if (out.empty()) fail_at(span, "name", "Tensor has no function or method '{}'{}", a.name, did_you_mean(a.name, member_names()));
    return out;
  }
  if (const std::optional<std::string> dotted = nn_name(*a.object)) {
    const std::string full = *dotted + "." + a.name;
    if (const HelpEntry* e = find_help(HelpKind::NnFunction, full)) return entry_text(HelpKind::NnFunction, *e);
    std::string out;  // nn.optim: the entries under it
    for (const std::string& n : help_names(HelpKind::NnFunction))
      if (n.starts_with(full + ".")) out += entry_text(HelpKind::NnFunction, *find_help(HelpKind::NnFunction, n));
    if (out.empty()) fail_at(span, "name", "{} has no '{}'{}", *dotted, a.name, did_you_mean(full, help_names(HelpKind::NnFunction)));
    return out;
  }
  const Value object = eval(*a.object);
  if (object.is<Tensor>()) {
    const std::string out = entry_or_empty(HelpKind::Method, a.name) + entry_or_empty(HelpKind::Attribute, a.name);
    if (out.empty()) fail_at(span, "name", "'Tensor' object has no attribute '{}'{}", a.name, did_you_mean(a.name, member_names()));
    return out;
  }
  if (const ObjectRef* o = object.get_if<ObjectRef>()) {
    const ObjectHelp h = object_help_of(**o);
    if (const HelpEntry* e = find_help(HelpKind::Member, fmt::format("{}.{}", h.members, a.name)))
      return entry_text(HelpKind::Member, *e);
    object_attribute(*o, a.name, span);  // the error for a member it does not have
    return fmt::format("'{}' of a {}, which {} tells:\n{}", a.name, object_type(**o), h.entry, owner_text(h));
  }
  if (object.is<Dict>()) {
    if (const HelpEntry* e = find_help(HelpKind::Member, fmt::format("dict.{}", a.name))) return entry_text(HelpKind::Member, *e);
    fail_at(span, "name", "'dict' object has no attribute '{}'", a.name);
  }
  fail_at(span, "name", "'{}' object has no attribute '{}'", type_name(object), a.name);
}

std::string Evaluator::value_help(std::string_view label, const Value& v) const {
  const std::string what = label.empty() ? "it" : std::string(label);
  if (v.is<Tensor>())
    return fmt::format("{} is {}\n{}(its methods: :help methods)\n", what, repr_value(v), help_text("Tensor"));
  if (const DType* t = v.get_if<DType>()) return entry_text(HelpKind::DType, *find_help(HelpKind::DType, tr::name(*t)));
  if (const FunctionRef* f = v.get_if<FunctionRef>()) {
    return fmt::format("{} is a function defined in this session{}:\n  {}\n", what, (*f)->jit ? ", under @jit" : "",
                       def_signature(**f));
  }
  if (const ObjectRef* o = v.get_if<ObjectRef>())
    return fmt::format("{} is a {}\n{}", what, object_type(**o), owner_text(object_help_of(**o)));
  return fmt::format("{} is {} {}: {}\n{}", what, type_name(v) == "int" ? "an" : "a", type_name(v), repr_value(v),
                     entry_or_empty(HelpKind::Function, type_name(v)));
}

Value Evaluator::print_help(const Expr& target, Span span) const { return printed(session_.print(), help(target), span); }

Value Evaluator::help_call(const Call& c, Span span) const {
  if (!c.keywords.empty()) fail_at(c.keywords[0].span, "type", "help() takes no keyword arguments");
  if (c.args.size() > 1) fail_at(c.args[1]->span, "type", "help() takes at most 1 argument ({} given)", c.args.size());
  if (c.args.empty()) return printed(session_.print(), help_text(""), span);
  return print_help(*c.args[0], span);
}

}  // namespace tr::repl
