#pragma once
// Puts a variable back when a scope is left, however it is left.
#include <utility>

namespace tr::repl {

template <typename T>
class Restore {
 public:
  Restore(T& member, T value) : member_(member), saved_(std::move(member)) { member_ = std::move(value); }
  ~Restore() { member_ = std::move(saved_); }
  Restore(const Restore&) = delete;
  Restore& operator=(const Restore&) = delete;

 private:
  T& member_;
  T saved_;
};

}  // namespace tr::repl
