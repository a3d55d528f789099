#include "viz/tui/tui.h"

#include <clocale>
#include <cstring>
#include <optional>

#include <langinfo.h>

#include "viz/tui/app.h"
#include "viz/tui/window.h"

namespace tr {
namespace {

// The panes draw trees and bars in UTF-8: the user's character set, or UTF-8 when theirs is not (a
// bare "C" in a terminal that shows UTF-8 nonetheless). Only LC_CTYPE: numbers keep C's decimal point.
void use_utf8_locale() {
  std::setlocale(LC_CTYPE, "");
  if (std::strcmp(nl_langinfo(CODESET), "UTF-8") != 0) std::setlocale(LC_CTYPE, "C.UTF-8");
}

// How long a wait for a key lasts before the TUI looks at the running statement's progress.
constexpr int kTickMs = 100;

// What curses read of the mouse: a press of the first button or a notch of the wheel; nothing for
// the rest (releases, other buttons).
std::optional<tui::Mouse> read_mouse() {
  MEVENT e{};
  if (getmouse(&e) != OK) return std::nullopt;
  using Act = tui::Mouse::Act;
  const auto act = e.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED) ? std::optional(Act::Press)
                   : e.bstate & BUTTON4_PRESSED                   ? std::optional(Act::WheelUp)
                   : e.bstate & BUTTON5_PRESSED                   ? std::optional(Act::WheelDown)
                                                                  : std::nullopt;
  if (!act) return std::nullopt;
  return tui::Mouse{.act = *act, .y = e.y, .x = e.x};
}

// The next key, or none within a tick; an Esc followed at once by a character is that character
// with Alt held.
std::optional<tui::Key> read_key() {
  wint_t c = 0;
  const int r = wget_wch(stdscr, &c);
  if (r == ERR) return std::nullopt;
  tui::Key k{.code = r == KEY_CODE_YES, .value = static_cast<int>(c)};
  if (k.code && k.value == KEY_MOUSE) k.mouse = read_mouse();
  if (k.code || c != 27) return k;
  nodelay(stdscr, TRUE);
  const int r2 = wget_wch(stdscr, &c);
  wtimeout(stdscr, kTickMs);
  if (r2 == ERR) return k;
  return tui::Key{.code = r2 == KEY_CODE_YES, .value = static_cast<int>(c), .alt = r2 != KEY_CODE_YES};
}

}  // namespace

int run_tui(TuiHost& host) {
  use_utf8_locale();
  const tui::Terminal terminal;
  tui::App app(host);
  wtimeout(stdscr, kTickMs);
  bool changed = true;
  while (!app.done()) {
    if (changed) app.draw();
    const std::optional<tui::Key> key = read_key();
    if (key) app.on_key(*key);
    changed = app.tick() || key;
  }
  return 0;
}

}  // namespace tr
