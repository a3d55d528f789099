#pragma once
// RAII over curses: the terminal session (initscr … endwin) and windows (newwin … delwin), and the
// one way the TUI puts text in a window: UTF-8 cut to a number of columns.
#include <memory>
#include <string_view>

#include <curses.h>

#include "viz/tui/layout.h"

namespace tr::tui {

// Curses on the process's terminal in raw mode (Ctrl-C and Ctrl-Z reach the TUI as keys instead of
// stopping it), no echo, function keys and mouse clicks and wheel decoded, colours set up; restored when it goes out of scope.
// Throws std::runtime_error when curses cannot drive the terminal (an unknown $TERM).
class Terminal {
 public:
  Terminal();
  ~Terminal();
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

 private:
  struct Delete {
    void operator()(SCREEN* s) const { delscreen(s); }
  };
  std::unique_ptr<SCREEN, Delete> screen_;
};

class Window {
 public:
  Window() = default;
  explicit Window(Rect r);

  WINDOW* get() const { return w_.get(); }
  explicit operator bool() const { return w_ != nullptr; }
  // Text at (y, x) with attr, cut to `cols` columns; returns the columns it took.
  int put(int y, int x, std::string_view text, int cols, int attr = A_NORMAL) const;
  // Spaces from (y, x) over `cols` columns, with attr.
  void fill(int y, int x, int cols, int attr = A_NORMAL) const;

 private:
  struct Close {
    void operator()(WINDOW* w) const { delwin(w); }
  };
  std::unique_ptr<WINDOW, Close> w_;
};

}  // namespace tr::tui
