#pragma once
// The TUI's state and what each key does to it: the focused pane, the zoom, the selected kernel and
// source tab, the input line, the :step walk; and the drawing of it all (app_draw.cpp).
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "core/realize/realize.h"
#include "viz/tui/colors.h"
#include "viz/tui/input_line.h"
#include "viz/tui/layout.h"
#include "viz/tui/pane_draw.h"
#include "viz/tui/pane_text.h"
#include "viz/tui/step.h"
#include "viz/tui/transcript.h"
#include "viz/tui/tui.h"
#include "viz/tui/window.h"
#include "viz/tui/worker.h"

namespace tr::tui {

// What the mouse did, where on the screen.
struct Mouse {
  enum class Act : uint8_t { Press, WheelUp, WheelDown } act = Act::Press;
  int y = 0, x = 0;
};

struct Key {
  bool code = false;  // value is a curses KEY_* code, else a character
  int value = 0;
  bool alt = false;   // the character came right after an Esc (Alt held)
  std::optional<Mouse> mouse{};  // value is KEY_MOUSE: what it was, when the TUI answers it
};

// A line selected in the UOps, Source or AST pane: it links the three (links.h). It holds while kernel
// K and, for a Source line, the tab stay shown.
struct LinkedLine {
  PaneId pane = PaneId::Uops;
  int line = 0;  // of the pane's text, unwrapped
  int kernel = -1;
  int tab = 0;
};

class App {
 public:
  explicit App(TuiHost& host);

  void on_key(const Key& k);
  // Between keys, a few times a second: takes what the worker finished, runs what waited for it,
  // answers a Ctrl-C that came as a signal. True when the screen should be drawn again.
  bool tick();
  void draw();
  bool done() const { return quit_; }

 private:
  // keys
  void edit_key(const Key& k);
  void pane_key(const Key& k);
  bool step_key(const Key& k);
  void search_key(const Key& k);
  void on_mouse(const Mouse& m);
  void feed_input(std::string_view bytes);
  void move_focus(int step);
  void focus_on(PaneId p);
  // `row`: of the Kernels pane, whose rows are in order_
  void move_selection(int row, bool kernels_only = true);
  // Up, Down, PgUp, PgDn, Home, End in the UOps, Source and AST panes: the line that links the three
  // moves `by` lines (kFar: to an end), and its pane follows it.
  bool linkable(PaneId p) const;
  void move_link(int by);
  // The selected line when it is of the kernel and tab shown, or null.
  const LinkedLine* link() const;
  int row_of(int k) const;
  // `[` and `]`: the schedule of the statement before or after the one shown, from the host's history
  void browse(int step);
  void toggle_order();
  void scroll(PaneId p, int by);
  void scroll_sideways(PaneId p, int by);
  void toggle_wrap(PaneId p);
  void set_tab(int tab);
  // `/`: the next (+1) or previous (-1) line of the focused pane that holds the search text.
  void find(int direction);

  // lines
  void submit(const std::string& typed);
  void execute(const std::string& line);
  void finish(const std::string& line, const TuiOutput& out);
  void interrupt();
  void start_step(const std::string& line, const std::string& expr);
  void on_stage();
  void end_step();
  void adopt_schedule(TuiSchedule schedule);
  void update_total();
  void view(const KernelView& v);

  // what the panes show, and where (app_draw.cpp)
  void relayout();
  void refresh();
  void show(PaneId p, PaneText text);
  int rows_of(PaneId p) const;
  int last_top(PaneId p) const;  // top_ when the pane shows its last line
  int cols_of(PaneId p) const;
  Frame frame_of(PaneId p) const;
  PaneScroll scroll_of(PaneId p) const;
  std::string status_text() const;

  // drawing (app_draw.cpp)
  void draw_input() const;
  void draw_status() const;
  void draw_help() const;
  void draw_too_small() const;

  TuiHost& host_;
  Worker worker_;
  std::string running_;                // the line the worker runs
  std::deque<std::string> waiting_;    // lines typed while it runs, run after it in order
  InputLine input_;
  std::string unfinished_;  // lines typed so far of an input that continues (an open bracket)
  Transcript transcript_;
  std::vector<TuiItem> items_;   // the schedule K numbers (Kernels, and what AST, UOps, Source show)
  std::vector<RunRecord> runs_;  // the runs of its items (Timings)
  std::string heading_;          // whose schedule it is, in the Kernels and Timings titles
  std::vector<int> order_;       // the K of each row of the Kernels pane
  bool by_time_ = false;         // Kernels and Timings list the longest first
  int selected_ = -1;            // K, into items_
  std::optional<PaneText> diff_;  // what :diff asked the Source pane to show, until the kernel or tab changes
  std::string session_total_;
  int tab_ = 0;
  bool tab_chosen_ = false;  // the user picked a backend: new kernels keep it
  std::string asm_backend_;  // whose code the Asm tab shows, as :asm K BACKEND named it ("": the device's)
  std::optional<StepWalk> step_;
  std::optional<LinkedLine> linked_;

  PaneId focus_ = PaneId::Repl;
  bool editing_ = true;
  bool zoomed_ = false;
  bool help_ = false;
  bool quit_ = false;
  std::string message_;  // one key's worth of news on the status line
  bool stale_ = true;    // what the panes show changed: rebuild their text (rendering is not free)

  std::optional<std::string> typing_search_;  // the text after '/' while it is typed
  std::string search_;                        // the last text searched for
  PaneId found_pane_ = PaneId::Repl;
  int found_ = -1;  // the line of found_pane_ that holds the match shown, or none
  size_t found_begin_ = 0, found_end_ = 0;

  std::array<PaneText, kPanes> texts_{};  // each pane's text as made
  std::array<PaneText, kPanes> panes_{};  // as shown: folded to the pane's width where wrap_ says
  std::array<bool, kPanes> wrap_{};
  std::array<int, kPanes> top_{}, left_{};
  Layout layout_{};
  std::array<Window, kPanes> windows_{};
  Window status_window_{}, screen_window_{};
};

}  // namespace tr::tui
