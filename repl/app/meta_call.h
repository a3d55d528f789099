#pragma once
// A meta command as typed, with the place of each argument, so that an error can point at the
// argument it is about and an expression argument keeps its columns.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/tensor/tensor.h"
#include "repl/session.h"
#include "repl/source_error.h"
#include "repl/syntax.h"

namespace tr::repl {

// An argument that reads as a kernel index K: "2", "-1".
bool is_index(std::string_view arg);
// Names typed in any case (backends, versions), as the tables spell them.
std::string lowercase(std::string arg);

class MetaCall {
 public:
  // at: the statement's span (its ':'); usage: ":src [K] [BACKEND]", for errors.
  MetaCall(const Meta& meta, Span at, std::string_view usage);

  const std::string& name() const { return meta_.name; }
  size_t size() const { return meta_.args.size(); }
  const std::string& arg(size_t i) const { return meta_.args[i]; }
  Span arg_span(size_t i) const;
  // Args [first, last) as typed, spaces included.
  std::string_view text(size_t first, size_t last) const;

  // A usage error unless the command has between lo and hi arguments.
  void expect(size_t lo, size_t hi) const;

  template <typename... Args>
  [[noreturn]] void fail(size_t i, const char* kind, fmt::format_string<Args...> f, Args&&... args) const {
    fail_at(i < size() ? arg_span(i) : at_, kind, f, std::forward<Args>(args)...);
  }

  // Runs f (a parser of argument i), giving a tr::Error it throws the argument's position.
  template <typename F>
  auto checked(size_t i, F&& f) const -> decltype(f()) {
    try {
      return f();
    } catch (const SourceError&) {
      throw;
    } catch (const Error& e) {
      fail(i, e.kind().c_str(), "{}", e.what());
    }
  }

  // Args [first, last) parsed and evaluated as one expression in the session; errors point into it.
  Value value(Session& s, size_t first, size_t last) const;
  Tensor tensor(Session& s, size_t first, size_t last) const;
  // Args [first, last) parsed as one expression, and the help of what it names (Session::help).
  std::string help(Session& s, size_t first, size_t last) const;

 private:
  // f of args [first, last) parsed as one expression; an error of the parse or of f points into them.
  Value on_expression(size_t first, size_t last, const std::function<Value(const Expr&)>& f) const;

  const Meta& meta_;
  Span at_;
  std::string_view usage_;
  std::vector<size_t> starts_;  // byte offset of each argument in meta_.text
};

}  // namespace tr::repl
