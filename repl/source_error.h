#pragma once
// An engine error (or one of the language's own) tied to the token it is about. It stays a tr::Error,
// so a host that only wants kind and message can catch that.
#include <fmt/format.h>

#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "repl/span.h"

namespace tr::repl {

// A script, or one interactive input: where a function's statements were written, so that an error
// inside it can show its line when the function runs later, from elsewhere.
struct SourceText {
  std::string file;  // "" for interactive input
  std::string text;
  // The line of the file that the text starts at, where the spans of its statements count from: an
  // input of a piped session is a piece of standard input.
  int first_line = 1;
};
using SourceRef = std::shared_ptr<const SourceText>;

// One call on the way to an error: the call's source and its span there.
struct CallSite {
  SourceRef source;
  Span span;
};

class SourceError : public Error {
 public:
  SourceError(std::string kind, const std::string& message, Span span) : Error(std::move(kind), message), span_(span) {}
  const Span& span() const { return span_; }
  // The source the span is in when it is not the statement's own (the error came from inside a
  // function), and the calls that led there, innermost first.
  const SourceRef& origin() const { return origin_; }
  const std::vector<CallSite>& calls() const { return calls_; }
  // A call has failed: the error passes out through its call site.
  void add_call(const SourceRef& callee_source, CallSite site) {
    if (calls_.empty()) origin_ = callee_source;
    calls_.push_back(std::move(site));
  }

 private:
  Span span_;
  SourceRef origin_;
  std::vector<CallSite> calls_;
};

template <typename... Args>
[[noreturn]] void fail_at(Span span, const char* kind, fmt::format_string<Args...> f, Args&&... args) {
  throw SourceError(kind, fmt::format(f, std::forward<Args>(args)...), span);
}

// Runs f, giving an engine error that has no position the span of the token it came from.
template <typename F>
auto at(Span span, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const SourceError&) {
    throw;
  } catch (const Error& e) {
    throw SourceError(e.kind(), e.what(), span);
  } catch (const std::bad_alloc&) {
    throw SourceError("memory", "out of memory", span);
  } catch (const std::length_error&) {  // a vector asked for more elements than it can ever hold
    throw SourceError("memory", "too large to allocate", span);
  }
}

}  // namespace tr::repl
