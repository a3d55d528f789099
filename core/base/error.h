#pragma once
// The one error type of the engine: a kind ("shape", "type", "value", "device", "compile", "index",
// "name", "syntax", "memory") and a message. The REPL adds the position of the offending token.
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace tr {

class Error : public std::runtime_error {
 public:
  Error(std::string kind, const std::string& message) : std::runtime_error(message), kind_(std::move(kind)) {}
  const std::string& kind() const { return kind_; }

 private:
  std::string kind_;
};

template <typename... Args>
[[noreturn]] void fail(const char* kind, fmt::format_string<Args...> f, Args&&... args) {
  throw Error(kind, fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace tr
