#include "viz/tui/window.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "viz/tui/colors.h"
#include "viz/tui/text.h"

namespace tr::tui {

Terminal::Terminal() : screen_(newterm(nullptr, stdout, stdin)) {
  const char* term = std::getenv("TERM");
  const std::string why = fmt::format("curses cannot drive the terminal '{}'", term ? term : "");
  if (!screen_) throw std::runtime_error(why);
  set_term(screen_.get());
  // A terminal that cannot move its cursor (TERM=dumb) would print the panes as one long line.
  const char* move = tigetstr("cup");
  if (move == nullptr || move == reinterpret_cast<char*>(-1)) {
    endwin();
    throw std::runtime_error(why);
  }
  raw();
  noecho();
  nonl();
  keypad(stdscr, TRUE);
  set_escdelay(25);  // a lone Esc leaves the input line at once; escape sequences arrive faster
  // clicks and the wheel; each press at once, rather than after a wait for a double click
  mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, nullptr);
  mouseinterval(0);
  init_colors();
}

Terminal::~Terminal() { endwin(); }

Window::Window(Rect r) : w_(r.empty() ? nullptr : newwin(r.h, r.w, r.y, r.x)) {}

int Window::put(int y, int x, std::string_view text, int cols, int attr) const {
  if (!w_ || cols <= 0) return 0;
  const size_t n = fit(text, cols);
  wattrset(w_.get(), attr);
  mvwaddnstr(w_.get(), y, x, text.data(), static_cast<int>(n));
  wattrset(w_.get(), A_NORMAL);
  return display_width(text.substr(0, n));
}

void Window::fill(int y, int x, int cols, int attr) const {
  if (cols > 0) put(y, x, std::string(cols, ' '), cols, attr);
}

}  // namespace tr::tui
