#include "viz/tui/app.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/runtime/device.h"
#include "core/base/interrupt.h"
#include "core/render/render.h"
#include "viz/timings.h"
#include "viz/tui/pane_content.h"
#include "viz/tui/pane_draw.h"
#include "viz/tui/pane_wrap.h"
#include "viz/tui/text.h"

namespace tr::tui {
namespace {

constexpr int ctrl(char c) { return c & 0x1f; }
constexpr int kEsc = 27;
constexpr int kFar = 1 << 24;  // Home and End: further than any pane scrolls
constexpr int kWheelLines = 3;  // a notch of the mouse wheel, as terminals and browsers scroll

// How readline's default bindings spell the keys curses has decoded.
std::string_view key_sequence(int code) {
  switch (code) {
    case KEY_UP: return "\033[A";
    case KEY_DOWN: return "\033[B";
    case KEY_RIGHT: return "\033[C";
    case KEY_LEFT: return "\033[D";
    case KEY_HOME: return "\033[H";
    case KEY_END: return "\033[F";
    case KEY_DC: return "\033[3~";
    case KEY_BACKSPACE: return "\177";
    case KEY_ENTER: return "\r";
    default: return "";
  }
}

std::string trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t") - b + 1));
}

std::string lowercase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int backend_index(const std::string& name) {
  const auto& b = backends();
  return static_cast<int>(std::find(b.begin(), b.end(), name) - b.begin()) % static_cast<int>(b.size());
}

}  // namespace

// Completion reads the session, which the worker may be changing: none while a statement runs.
App::App(TuiHost& host)
    : host_(host), input_(host.history_file, [this](const std::string& line, size_t cursor) {
        return worker_.busy() ? TuiCompletion{} : host_.complete(line, cursor);
      }) {
  relayout();
}

bool App::tick() {
  if (std::optional<TuiOutput> out = worker_.take()) {
    finish(running_, *out);
    while (!waiting_.empty() && !worker_.busy() && !quit_) {
      const std::string next = waiting_.front();
      waiting_.pop_front();
      submit(next);
    }
    if (stale_) refresh();
    return true;
  }
  if (worker_.busy()) return true;  // the progress line moves
  if (!interrupted()) return false;
  // a Ctrl-C signal (kill -INT) with nothing running: as the key at the prompt
  clear_interrupt();
  interrupt();
  if (stale_) refresh();
  return true;
}

void App::interrupt() {
  if (worker_.busy()) {
    request_interrupt();
    waiting_.clear();
    message_ = "stopping…";
    return;
  }
  unfinished_.clear();
  stale_ = true;
  input_.discard();
}

void App::on_key(const Key& k) {
  message_.clear();
  if (k.code && k.value == KEY_RESIZE) return relayout();
  if (!k.code && k.value == ctrl('L')) {
    clearok(curscr, TRUE);
    return relayout();
  }
  if (help_) {
    help_ = false;
    return;
  }
  if (layout_.too_small) {
    quit_ = !k.code && k.value == ctrl('D');
    return;
  }
  if (k.code && k.value == KEY_F(1)) {
    help_ = true;
    return;
  }
  if (k.code && k.value == KEY_MOUSE) {
    if (k.mouse) on_mouse(*k.mouse);
  } else if (typing_search_) {
    search_key(k);
  } else if (editing_) {
    edit_key(k);
  } else if (!step_ || !step_key(k)) {
    pane_key(k);
  }
  if (stale_) refresh();
}

void App::edit_key(const Key& k) {
  if (k.code) {
    switch (k.value) {
      case KEY_BTAB: return move_focus(-1);
      case KEY_PPAGE: return scroll(PaneId::Repl, -rows_of(PaneId::Repl));
      case KEY_NPAGE: return scroll(PaneId::Repl, rows_of(PaneId::Repl));
      default: return feed_input(key_sequence(k.value));
    }
  }
  if (k.alt) return feed_input("\033" + utf8(static_cast<char32_t>(k.value)));
  switch (k.value) {
    case '\t':
      if (input_.text().empty()) return move_focus(1);
      break;
    case kEsc:
      if (!input_.message().empty()) break;  // readline's history search ends on Esc
      editing_ = false;
      return;
    case ctrl('C'): return interrupt();
    case ctrl('Z'): return;  // suspending would leave the terminal in curses' modes
    default: break;
  }
  feed_input(utf8(static_cast<char32_t>(k.value)));
}

void App::feed_input(std::string_view bytes) {
  input_.feed(bytes);
  while (std::optional<std::string> line = input_.take_line()) {
    submit(*line);
    if (quit_) return;
  }
  quit_ = quit_ || input_.at_eof();
  const std::vector<std::string> matches = input_.take_matches();
  if (!matches.empty()) message_ = fmt::format("{}", fmt::join(matches, "  "));
}

bool App::step_key(const Key& k) {
  const int v = k.value;
  if ((!k.code && (v == ' ' || v == '\r' || v == '\n' || v == 'n')) || (k.code && v == KEY_ENTER)) {
    bool moved = false;
    const auto forward = [&] { moved = step_->forward(); };
    if (host_.as_statement) host_.as_statement(":step " + step_->expr(), forward);
    else forward();
    if (moved) on_stage();
    else end_step();
  } else if ((!k.code && (v == 127 || v == ctrl('H') || v == 'p')) || (k.code && v == KEY_BACKSPACE)) {
    if (step_->back()) on_stage();
  } else if (!k.code && (v == kEsc || v == 'q')) {
    end_step();
  } else {
    if (!k.code && v == ':') end_step();  // and on to the input line
    return false;
  }
  return true;
}

void App::pane_key(const Key& k) {
  const bool list = focus_ == PaneId::Kernels && !step_;
  const int page = std::max(1, rows_of(focus_) - 1);
  if (k.code && linkable(focus_)) {
    switch (k.value) {
      case KEY_UP: return move_link(-1);
      case KEY_DOWN: return move_link(1);
      case KEY_PPAGE: return move_link(-page);
      case KEY_NPAGE: return move_link(page);
      case KEY_HOME: return move_link(-kFar);
      case KEY_END: return move_link(kFar);
      default: break;
    }
  }
  const int sideways = std::max(1, cols_of(focus_) / 4);
  if (k.code) {
    switch (k.value) {
      case KEY_BTAB: return move_focus(-1);
      case KEY_UP: return list ? move_selection(row_of(selected_) - 1) : scroll(focus_, -1);
      case KEY_DOWN: return list ? move_selection(row_of(selected_) + 1) : scroll(focus_, 1);
      case KEY_PPAGE: return list ? move_selection(row_of(selected_) - page) : scroll(focus_, -page);
      case KEY_NPAGE: return list ? move_selection(row_of(selected_) + page) : scroll(focus_, page);
      case KEY_HOME: return list ? move_selection(0) : scroll(focus_, -kFar);
      case KEY_END: return list ? move_selection(kFar) : scroll(focus_, kFar);
      case KEY_LEFT: return set_tab(tab_ - 1);
      case KEY_RIGHT: return set_tab(tab_ + 1);
      case KEY_SLEFT: return scroll_sideways(focus_, -sideways);
      case KEY_SRIGHT: return scroll_sideways(focus_, sideways);
      default: break;
    }
  }
  const int v = k.code ? 0 : k.value;
  const bool enter = k.code ? k.value == KEY_ENTER : v == '\r' || v == '\n';
  if (v == '\t') {
    move_focus(1);
  } else if (v == 'z') {
    zoomed_ = !zoomed_;
    relayout();
  } else if (v == '<' || v == '>') {
    scroll_sideways(focus_, v == '<' ? -sideways : sideways);
  } else if (v == 'w') {
    toggle_wrap(focus_);
  } else if (v == '[' || v == ']') {
    browse(v == '[' ? -1 : 1);
  } else if (v == 's') {
    toggle_order();
  } else if (v == '/') {
    typing_search_ = "";
  } else if (v == 'n' || v == 'N') {
    find(v == 'n' ? 1 : -1);
  } else if (v >= '1' && v <= '9') {
    if (v - '1' < static_cast<int>(backends().size())) set_tab(v - '1');  // a digit beyond the last tab does nothing
  } else if (v == 'a') {
    set_tab(asm_tab());
  } else if (v == kEsc && zoomed_) {
    zoomed_ = false;
    relayout();
  } else if (v == ctrl('C')) {
    interrupt();
  } else if (v == ctrl('D')) {
    quit_ = true;
  } else if (v == ':' || enter) {  // back to the input line, with the ':' of a meta command typed
    focus_on(PaneId::Repl);
    if (v == ':') feed_input(":");
  }
}

void App::search_key(const Key& k) {
  std::string& typed = *typing_search_;
  const int v = k.value;
  if ((k.code && v == KEY_BACKSPACE) || (!k.code && (v == 127 || v == ctrl('H')))) {
    while (!typed.empty()) {  // one character, however many bytes
      const auto last = static_cast<unsigned char>(typed.back());
      typed.pop_back();
      if ((last & 0xc0) != 0x80) break;
    }
  } else if ((k.code && v == KEY_ENTER) || (!k.code && (v == '\r' || v == '\n'))) {
    if (!typed.empty()) search_ = typed;
    typing_search_.reset();
    found_ = -1;
    find(1);
  } else if (!k.code && (v == kEsc || v == ctrl('C'))) {
    typing_search_.reset();
  } else if (!k.code && v >= ' ') {
    typed += utf8(static_cast<char32_t>(v));
  }
}

void App::on_mouse(const Mouse& m) {
  for (int i = 0; i < kPanes; i++) {
    const Rect& r = layout_.panes[i];
    if (r.empty() || m.y < r.y || m.y >= r.y + r.h || m.x < r.x || m.x >= r.x + r.w) continue;
    const auto p = static_cast<PaneId>(i);
    switch (m.act) {
      case Mouse::Act::WheelUp: return scroll(p, -kWheelLines);
      case Mouse::Act::WheelDown: return scroll(p, kWheelLines);
      case Mouse::Act::Press: break;
    }
    focus_on(p);
    // a row of the Kernels table, under its header that stays put
    const int below_header = m.y - r.y - kInnerY - panes_[i].fixed;
    const int row = top_[i] + below_header;
    if (p == PaneId::Kernels && !step_ && below_header >= 0 && row < static_cast<int>(items_.size()))
      move_selection(row, false);
    // a line of UOps, Source (under its tab line) or AST: the linked line
    const int text_row = below_header - (panes_[i].tabs.empty() ? 0 : 1);
    const int shown = panes_[i].fixed + top_[i] + text_row;
    if (linkable(p) && text_row >= 0 && shown < static_cast<int>(panes_[i].lines.size())) {
      const int line = shown < static_cast<int>(panes_[i].origin.size()) ? panes_[i].origin[static_cast<size_t>(shown)] : shown;
      linked_ = LinkedLine{.pane = p, .line = line, .kernel = selected_, .tab = tab_};
      stale_ = true;
    }
    return;
  }
}

void App::move_focus(int step) { focus_on(next_pane(focus_, step)); }

void App::focus_on(PaneId p) {
  focus_ = p;
  editing_ = focus_ == PaneId::Repl;
  if (zoomed_) relayout();
}

// Keys step over copies, which have no AST, UOps or source; a click may select one.
void App::move_selection(int row, bool kernels_only) {
  const int n = static_cast<int>(order_.size());
  if (n == 0) return;
  const int step = row < row_of(selected_) ? -1 : 1;
  row = std::clamp(row, 0, n - 1);
  auto copy = [&](int r) { return items_[static_cast<size_t>(order_[static_cast<size_t>(r)])].record.is_copy; };
  for (int r = row; kernels_only && r >= 0 && r < n && copy(row); r += step)
    if (!copy(r)) row = r;
  for (int r = row; kernels_only && r >= 0 && r < n && copy(row); r -= step)  // none that way: the nearest back
    if (!copy(r)) row = r;
  if (order_[static_cast<size_t>(row)] != selected_) diff_.reset();
  selected_ = order_[static_cast<size_t>(row)];
  stale_ = true;
}

bool App::linkable(PaneId p) const {
  const bool kernel = selected_ >= 0 && selected_ < static_cast<int>(items_.size()) &&
                      !items_[static_cast<size_t>(selected_)].record.is_copy;
  return kernel && !step_ && (p == PaneId::Uops || p == PaneId::Ast || (p == PaneId::Source && !diff_));
}

const LinkedLine* App::link() const {
  if (!linked_ || !linkable(linked_->pane) || linked_->kernel != selected_) return nullptr;
  return linked_->pane == PaneId::Source && linked_->tab != tab_ ? nullptr : &*linked_;
}

void App::move_link(int by) {
  const int i = static_cast<int>(focus_);
  const PaneText& text = texts_[i];
  if (text.lines.empty()) return;
  int line = 0;
  if (const LinkedLine* l = link(); l && l->pane == focus_) {
    line = l->line + by;
  } else {  // the first press picks the first line in view
    const PaneText& shown = panes_[i];
    const int row = shown.fixed + top_[i];
    line = row < static_cast<int>(shown.origin.size()) ? shown.origin[static_cast<size_t>(row)] : row;
  }
  line = std::clamp(line, text.fixed, static_cast<int>(text.lines.size()) - 1);
  linked_ = LinkedLine{.pane = focus_, .line = line, .kernel = selected_, .tab = tab_};
  stale_ = true;
}

int App::row_of(int k) const {
  const auto at = std::find(order_.begin(), order_.end(), k);
  return at == order_.end() ? -1 : static_cast<int>(at - order_.begin());
}

void App::browse(int step) {
  if (step_) return;  // the :step walk owns the panes
  if (worker_.busy() || !host_.browse) {
    message_ = "the history can be browsed once the running line ends";
    return;
  }
  std::optional<TuiOutput> out = host_.browse(step);
  if (!out) {
    message_ = step < 0 ? "[: no older statement is kept (:history lists them)" : "]: this is the newest statement";
    return;
  }
  adopt_schedule(std::move(*out->schedule));
  message_ = out->text.empty() ? fmt::format("{} · [ older · ] newer", heading_) : out->text;
  stale_ = true;
}

void App::toggle_order() {
  by_time_ = !by_time_;
  order_ = item_order(items_, by_time_);
  message_ = by_time_ ? "Kernels and Timings: the longest first (s: in K order)" : "Kernels and Timings: in K order";
  stale_ = true;
}

void App::scroll(PaneId p, int by) {
  const int i = static_cast<int>(p);
  top_[i] = std::clamp(top_[i] + by, 0, last_top(p));
}

void App::scroll_sideways(PaneId p, int by) {
  const int i = static_cast<int>(p);
  if (wrap_[i]) return;  // a wrapped pane has nothing beside it
  left_[i] = std::clamp(left_[i] + by, 0, std::max(0, widest(panes_[i]) - cols_of(p)));
}

void App::toggle_wrap(PaneId p) {
  const int i = static_cast<int>(p);
  const std::vector<int>& was = panes_[i].origin;
  const int first = top_[i] + panes_[i].fixed;  // the first line under the fixed ones
  const int line = first < static_cast<int>(was.size()) ? was[static_cast<size_t>(first)] : first;
  const bool at_end = first + rows_of(p) >= static_cast<int>(panes_[i].lines.size());
  wrap_[i] = !wrap_[i];
  left_[i] = 0;
  show(p, texts_[i]);
  // a pane at its end stays there (the REPL's newest output); else the line that was at the top does
  const std::vector<int>& now = panes_[i].origin;
  top_[i] = (at_end ? kFar
             : now.empty() ? line
                           : static_cast<int>(std::lower_bound(now.begin(), now.end(), line) - now.begin())) -
            panes_[i].fixed;
  scroll(p, 0);
  message_ = fmt::format("{}: long lines {}", pane_name(p), wrap_[i] ? "wrap (w: scroll sideways)" : "scroll sideways");
}

void App::find(int direction) {
  if (search_.empty()) {
    message_ = "/ then a text to search the focused pane for";
    return;
  }
  const int i = static_cast<int>(focus_);
  const std::vector<std::string>& lines = panes_[i].lines;
  const int n = static_cast<int>(lines.size());
  const std::string want = lowercase(search_);
  // from the match shown, else from the top of the view
  const int fixed = panes_[i].fixed;
  const int from = found_pane_ == focus_ && found_ >= 0 ? found_ : direction > 0 ? top_[i] + fixed - 1 : top_[i] + fixed;
  for (int step = 1; step <= n; step++) {
    const int line = ((from + direction * step) % n + n) % n;
    const size_t at = lowercase(lines[static_cast<size_t>(line)]).find(want);
    if (at == std::string::npos) continue;
    found_pane_ = focus_;
    found_ = line;
    found_begin_ = at;
    found_end_ = at + want.size();
    const int rows = rows_of(focus_), cols = cols_of(focus_);
    if (line >= fixed && (line - fixed < top_[i] || line - fixed >= top_[i] + rows)) top_[i] = line - fixed - rows / 3;
    scroll(focus_, 0);
    const int col = display_width(std::string_view(lines[static_cast<size_t>(line)]).substr(0, at));
    const int width = display_width(search_);
    if (!wrap_[i] && (col < left_[i] || col + width > left_[i] + cols)) left_[i] = std::max(0, col - cols / 4);
    const bool round = from >= 0 && (direction > 0 ? line <= from : line >= from);
    message_ = fmt::format("/{}: line {} of {}{}", search_, line + 1, n, round ? " (from the other end)" : "");
    return;
  }
  found_ = -1;
  message_ = fmt::format("/{}: not in the {} pane", search_, pane_name(focus_));
}

void App::set_tab(int tab) {
  const int n = static_cast<int>(source_tabs().size());
  tab_ = (tab + n) % n;  // Left and Right go round
  tab_chosen_ = true;
  asm_backend_.clear();
  diff_.reset();
  stale_ = true;
}

void App::submit(const std::string& typed) {
  if (worker_.busy()) {  // its turn comes when the running line ends (tick)
    waiting_.push_back(typed);
    return;
  }
  const std::string input = unfinished_.empty() ? typed : unfinished_ + "\n" + typed;
  stale_ = true;  // the REPL pane shows the unfinished input
  if (host_.continues && host_.continues(input)) {
    unfinished_ = input;
    return;
  }
  unfinished_.clear();
  input_.remember(input);
  const std::string line = trim(input);
  if (line.empty()) return;
  if (line == ":step" || line.starts_with(":step ") || line.starts_with(":step\t")) {
    start_step(line, trim(std::string_view(line).substr(5)));
  } else {
    help_ = line == ":help";
    execute(line);
  }
}

void App::execute(const std::string& line) {
  running_ = line;
  clear_interrupt();  // a Ctrl-C answered before this line is not this line's
  worker_.start([this, line] { return host_.execute(line); });
}

void App::finish(const std::string& line, const TuiOutput& out) {
  quit_ = out.quit;
  stale_ = true;
  top_[static_cast<int>(PaneId::Repl)] = kFar;  // the newest output, at the bottom
  update_total();
  if (out.schedule) adopt_schedule(*out.schedule);
  std::string text = out.text;
  if (out.view && out.view->kernel >= 0 && out.view->kernel < static_cast<int>(items_.size())) {
    view(*out.view);
    const PaneId p = stage_pane(out.view->stage);
    const std::string& name = items_[static_cast<size_t>(selected_)].record.kernel.name;
    text += out.view->diff.empty()
                ? fmt::format("the {} pane shows kernel {} ({}){}\n", pane_name(p), selected_, name,
                              p == PaneId::Source ? fmt::format(", tab {}", source_tabs().at(static_cast<size_t>(tab_))) : "")
                : fmt::format("the Source pane shows the diff of kernel {} ({}); a tab key shows its source again\n",
                              selected_, name);
  }
  transcript_.add(line, text);
}

void App::update_total() {
  const RunTotals& t = history().totals();
  session_total_ = t.kernels + t.copies == 0 ? "" : split_lines(totals_line(t)).front();
}

void App::adopt_schedule(TuiSchedule schedule) {
  items_ = std::move(schedule.items);
  runs_.clear();
  for (const TuiItem& t : items_)
    if (t.ran) runs_.push_back(t.record);
  const std::string first_line = schedule.statement.substr(0, schedule.statement.find('\n'));
  heading_ = schedule.number == 0 ? first_line
             : schedule.number == schedule.newest
                 ? fmt::format("#{} {}", schedule.number, first_line)
                 : fmt::format("#{} of {} {}", schedule.number, schedule.newest, first_line);
  order_ = item_order(items_, by_time_);
  diff_.reset();
  selected_ = last_kernel(items_);  // the kernel that computed the value, as :ast picks
  if (selected_ >= 0 && !tab_chosen_) {
    try {
      tab_ = backend_index(device(items_[static_cast<size_t>(selected_)].record.kernel.device).backend());
    } catch (const std::exception&) {
      tab_ = 0;  // the device went away: any tab renders
    }
  }
}

void App::view(const KernelView& v) {
  selected_ = v.kernel;
  if (!v.diff.empty()) {
    diff_ = diff_pane(fmt::format("Diff · {} · :diff {}", items_[static_cast<size_t>(v.kernel)].record.kernel.name, v.kernel),
                      v.diff);
  } else {
    diff_.reset();
  }
  if (v.machine_code) {
    tab_ = asm_tab();
    asm_backend_ = v.backend;
    tab_chosen_ = true;
  } else if (!v.backend.empty()) {
    tab_ = backend_index(v.backend);
    tab_chosen_ = true;
  }
  const int i = static_cast<int>(stage_pane(v.stage));
  top_[i] = left_[i] = 0;
  stale_ = true;
}

void App::start_step(const std::string& line, const std::string& expr) {
  stale_ = true;  // the transcript gets the line, whatever comes of it
  if (expr.empty()) return transcript_.add(line, "usage: :step EXPR, e.g. :step (a*b).sum()\n");
  TensorLookup found;
  try {
    found = host_.tensor_of(expr);
  } catch (const std::exception& e) {
    found.error = e.what();
  }
  if (!found.tensor) {
    const std::string why = found.error.empty() ? fmt::format("error: {} is not a tensor\n", expr) : found.error;
    return transcript_.add(line, why);
  }
  try {
    step_.emplace(expr, found.tensor);
  } catch (const std::exception& e) {
    return transcript_.add(line, fmt::format("error: {}\n", e.what()));
  }
  transcript_.add(line, "");
  on_stage();
}

void App::on_stage() {
  focus_ = step_->pane();
  editing_ = false;
  if (step_->stage().stage == Stage::Source) tab_ = backend_index(step_->backend());
  if (step_->stage().stage == Stage::Run && !step_->runs().empty()) {
    update_total();
    adopt_schedule({.items = items_of(step_->runs()), .statement = ":step " + step_->expr()});
  }
  relayout();
}

void App::end_step() {
  step_.reset();
  focus_ = PaneId::Repl;
  editing_ = true;
  relayout();
}

}  // namespace tr::tui
