#pragma once
// Expressions to values. Every error that leaves the evaluator is a SourceError at the token it is
// about: an operator, a function or method name, an argument, a bracket.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "repl/arguments.h"
#include "repl/indexing.h"
#include "repl/print_event.h"
#include "repl/syntax.h"
#include "repl/value.h"

namespace tr::repl {

class Session;

class Evaluator {
 public:
  explicit Evaluator(Session& session) : session_(session) {}

  Value eval(const Expr& e) const;
  // A subscript's entries, evaluated (for reading x[i] and for assigning to it).
  std::vector<IndexItem> index_items(const Subscript& s) const;
  // Tensor.train and its kin, which older tinygrad had: says what 0.14 has instead.
  static void not_in_tinygrad(const std::string& name, Span span);

  // The help entry of what e names, as help(e) and e? print it: a string is a topic or a name (as :help
  // takes it), a name a variable's value or an entry, x.NAME the entry of x's member (x any expression;
  // dtypes., Tensor. and nn. look in their tables); any other expression the entry of its value.
  std::string help(const Expr& e) const;

  // Every name an expression may use: variables, functions, dtypes, namespaces.
  std::vector<std::string> known_names() const;
  // The same, given the variables' names.
  static std::vector<std::string> known_names_with(std::vector<std::string> variables);

 private:
  // Names that are not values but prefixes, as in tinygrad: dtypes.float32, Tensor.zeros(...), nn.Linear(...).
  static constexpr std::string_view kDTypes = "dtypes";
  static constexpr std::string_view kTensor = "Tensor";
  static constexpr std::string_view kNn = "nn";
  // Python's help, which names its argument instead of evaluating it.
  static constexpr std::string_view kHelp = "help";

  Value name(const std::string& id, Span span) const;
  Value logic(const Logic& l, Span span) const;
  Value comparison(const Comparison& c) const;
  Value call(const Call& c, Span span) const;
  Value attribute(const Attribute& a, Span span) const;
  Value subscript(const Subscript& s, Span span) const;
  CallArgs arguments(const Call& c, std::string name, Span span) const;
  // The values of a list's, a tuple's items, *xs spread.
  std::vector<Value> items(const std::vector<ExprRef>& exprs) const;

  // help(...): its argument is named, not called, so it is no ordinary function (repl/help_call.cpp).
  Value help_call(const Call& c, Span span) const;
  // Prints the help of target through print's sink, as Python's help prints; returns None.
  Value print_help(const Expr& target, Span span) const;
  std::string attribute_help(const Attribute& a, Span span) const;
  // label (a variable's name, or "" for an expression) is v.
  std::string value_help(std::string_view label, const Value& v) const;

  // Calls a def's value or a layer; name is what the call's errors call it.
  Value call_value(const Value& callee, const Call& c, const std::string& name, Span span) const;
  // "nn.optim.Adam" for that chain of attributes on the nn namespace (no variable named nn).
  std::optional<std::string> nn_name(const Expr& e) const;
  // True when e is the bare name of a namespace ("dtypes", "Tensor") that no variable shadows.
  bool is_namespace(const Expr& e, std::string_view ns) const;

  Session& session_;
};

}  // namespace tr::repl
