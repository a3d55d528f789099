#pragma once
// Arguments of a function or method call, bound to its parameters as Python binds them, with the
// messages Python gives for a missing, extra, repeated or unknown argument.
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "repl/span.h"
#include "repl/value.h"

namespace tr::repl {

struct Arg {
  Value value;
  Span span;         // the argument's expression
  std::string what;  // how errors name it: "argument 'axis' of sum()"; set by bind()
};

struct KeywordValue {
  std::string name;
  Value value;
  Span span;  // the keyword's name
};

struct CallArgs {
  std::string name;  // the function or method: "zeros", "sum"
  Span span;         // its name in the source
  std::vector<Arg> args;
  std::vector<KeywordValue> keywords;
};

enum class ParamKind : uint8_t {
  Required,
  Optional,  // an explicit None counts as left out: every optional parameter defaults to None or means it
  Rest,      // *args: the remaining positional arguments; keywords cannot name it
};
// short names for the tables of parameters
inline constexpr ParamKind kRequired = ParamKind::Required;
inline constexpr ParamKind kRest = ParamKind::Rest;

struct Param {
  std::string_view name;
  ParamKind kind = ParamKind::Optional;
  std::string_view alias = {};  // a second keyword for it: transpose's dim0 is also SPEC's `a`
};

class Bound {
 public:
  // The argument for a parameter, or null when the call left it out.
  const Arg* find(std::string_view name) const;
  // A required parameter's argument (bind() has checked it is there).
  const Arg& operator[](std::string_view name) const;
  const std::vector<Arg>& rest() const { return rest_; }

 private:
  friend Bound bind(const CallArgs& call, std::initializer_list<Param> params);
  std::vector<std::pair<std::string_view, std::optional<Arg>>> named_;
  std::vector<Arg> rest_;
};

// Throws SourceError (kind "type") at the offending argument.
Bound bind(const CallArgs& call, std::initializer_list<Param> params);

}  // namespace tr::repl
