#pragma once
// An engine error (or one of the language's own) tied to the token it is about. It stays a tr::Error,
// so a host that only wants kind and message can catch that.
#include <fmt/format.h>

#include <new>
#include <stdexcept>
#include <utility>

#include "core/error.h"
#include "repl/span.h"

namespace tr::repl {

class SourceError : public Error {
 public:
  SourceError(std::string kind, const std::string& message, Span span) : Error(std::move(kind), message), span_(span) {}
  const Span& span() const { return span_; }

 private:
  Span span_;
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
