#pragma once
// Where a token sits in the source, so that an error can put a caret under it.
namespace tr::repl {

struct Span {
  int line = 0;  // 1-based
  int col = 0;   // 1-based, in bytes
  int len = 0;   // bytes covered by the caret line; at least 1 when shown
  bool operator==(const Span&) const = default;
};

}  // namespace tr::repl
