// What the panes of the App show, where they are, and the drawing of them.
#include <algorithm>

#include <fmt/format.h>

#include "core/base/progress.h"
#include "viz/tui/app.h"
#include "viz/tui/help.h"
#include "viz/tui/links.h"
#include "viz/tui/pane_content.h"
#include "viz/tui/pane_draw.h"
#include "viz/tui/pane_wrap.h"
#include "viz/tui/roofline_pane.h"
#include "viz/tui/text.h"

namespace tr::tui {
namespace {

constexpr int kTimingsColumns = 64;  // timings_table's columns before the bar
constexpr std::string_view kStepKeys = "  [Space next · Backspace back · Esc stop]";

int index(PaneId p) { return static_cast<int>(p); }

std::string line_breaks_shown(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') out += "↵";
    else out += c;
  }
  return out;
}
int footer_rows(PaneId p) { return p == PaneId::Repl ? 1 : 0; }  // the REPL's input line

}  // namespace

void App::relayout() {
  // the REPL's newest output is at its bottom, as in a shell: a pane read from its end (its anchor past
  // its last line) that showed its last line shows it after the resize too; a smaller pane kept its top
  // and hid the newest lines under the prompt
  std::array<bool, kPanes> at_end{};
  for (int i = 0; i < kPanes; i++)
    at_end[i] = panes_[i].anchor >= static_cast<int>(panes_[i].lines.size()) && top_[i] >= last_top(static_cast<PaneId>(i));
  const int status_rows = step_ ? static_cast<int>(wrap(status_text(), COLS).size()) : 1;
  layout_ = layout(COLS, LINES, zoomed_ ? std::optional(focus_) : std::nullopt, status_rows);
  for (int i = 0; i < kPanes; i++) windows_[i] = Window(layout_.panes[i]);
  status_window_ = Window(layout_.status);
  screen_window_ = Window(layout_.too_small ? Rect{0, 0, LINES, COLS} : Rect{});
  refresh();
  for (int i = 0; i < kPanes; i++)
    if (at_end[i]) top_[i] = last_top(static_cast<PaneId>(i));
}

int App::last_top(PaneId p) const {
  const int i = index(p);
  return std::max(0, static_cast<int>(panes_[i].lines.size()) - panes_[i].fixed - rows_of(p));
}

void App::refresh() {
  stale_ = false;
  const bool any = selected_ >= 0 && selected_ < static_cast<int>(items_.size());
  const RunRecord* item = any ? &items_[static_cast<size_t>(selected_)].record : nullptr;
  const KernelRecord* k = item && !item->is_copy ? &item->kernel : nullptr;
  const std::vector<RunRecord> runs = by_time_ ? longest_first(runs_) : runs_;
  const std::string heading = by_time_ ? "by time · " + heading_ : heading_;
  // the selected item's row in Timings
  int timed = -1;
  for (size_t r = 0; item && items_[static_cast<size_t>(selected_)].ran && r < runs.size(); r++)
    if (runs[r].start_us == item->start_us) timed = static_cast<int>(r);
  const int bars = std::max(0, inner_width(layout_.panes[index(PaneId::Timings)]) - kTimingsColumns - 1);
  const std::string none = "no kernel to show: type an expression in the REPL pane";
  auto of_kernel = [&](std::string_view title, auto pane) {
    if (k) return pane(*k);
    if (item) return copy_placeholder(title, selected_, item->copy);
    return placeholder(title, none);
  };
  // the source tab once, for its pane and for the links; its lines link where they spell the kernel's own UOps
  const std::optional<TabSource> source = k && tab_ != asm_tab() ? std::optional(tab_source(*k, tab_)) : std::nullopt;
  const RenderedSource* source_lines = source && source->error.empty() && source->lines.own ? &source->lines.source : nullptr;
  const LinkedLine* link = this->link();
  const Links links = link ? links_of(link->pane, link->line, *k->program, source_lines) : Links{};
  // the selected line in reverse video, what it links to marked in the other panes
  const auto linked = [&](PaneId p, PaneText text, const std::vector<int>& lines) {
    text.linked = lines;
    if (link && link->pane == p) {
      text.mark_begin = link->line;
      text.mark_end = link->line + 1;
    }
    if (p == PaneId::Source && link && !source_lines) text.title += " · lowered again: its UOps are not the UOps pane's";
    return text;
  };
  for (int i = 0; i < kPanes; i++) {
    const auto p = static_cast<PaneId>(i);
    if (step_) {
      if (std::optional<PaneText> c = step_->content(p, tab_, inner_width(layout_.panes[i]))) {
        show(p, std::move(*c));
        continue;
      }
    }
    switch (p) {
      case PaneId::Kernels: show(p, kernels_pane(items_, selected_, order_, heading, inner_width(layout_.panes[i]))); break;
      case PaneId::Timings:
        show(p, timings_pane(runs, timed, bars, session_total_, heading, inner_width(layout_.panes[i])));
        break;
      case PaneId::Ast: show(p, linked(p, of_kernel("AST", [](const KernelRecord& r) { return ast_pane(r); }), links.ast)); break;
      case PaneId::Uops: show(p, linked(p, of_kernel("UOps", [](const KernelRecord& r) { return uops_pane(r); }), links.uops)); break;
      case PaneId::Roofline:
        show(p, roofline_pane(items_, selected_, host_, inner_width(layout_.panes[i]), layout_.panes[i].h - 2));
        break;
      case PaneId::Source:
        show(p, diff_ ? *diff_
                      : linked(p, of_kernel("Source", [&](const KernelRecord& r) {
                                 return source ? source_pane(r, tab_, *source) : source_pane(r, tab_, asm_backend_);
                               }),
                               links.source));
        break;
      case PaneId::Repl: show(p, transcript_.pane(unfinished_)); break;
    }
  }
}

void App::show(PaneId p, PaneText text) {
  const int i = index(p);
  PaneText folded = wrap_[i] ? wrapped(text, cols_of(p)) : text;
  texts_[i] = std::move(text);
  PaneText& shown = panes_[i];
  if (shown.title != folded.title || shown.lines != folded.lines || shown.tab != folded.tab) {
    top_[i] = folded.anchor - folded.fixed;
    if (found_pane_ == p) found_ = -1;
  }
  const bool newly_linked = !folded.linked.empty() && folded.linked != shown.linked;
  shown = std::move(folded);
  // top_ counts the lines under the fixed ones; the marked lines are among those
  const int rows = rows_of(p), fixed = shown.fixed;
  // lines just linked from another pane: the first of them comes into view (then the user's scrolling holds)
  if (newly_linked && shown.mark_begin < 0) {
    const int first = shown.linked.front() - fixed, last = shown.linked.back() - fixed;
    if (first < top_[i] || last >= top_[i] + rows) top_[i] = std::max(0, first - 1);
  }
  const int mark_begin = shown.mark_begin - fixed, mark_end = shown.mark_end - fixed;
  if (shown.mark_begin >= 0 && mark_begin < top_[i]) top_[i] = mark_begin;
  if (mark_end > top_[i] + rows) top_[i] = std::min(mark_begin, mark_end - rows);
  top_[i] = std::clamp(top_[i], 0, std::max(0, static_cast<int>(shown.lines.size()) - fixed - rows));
  left_[i] = std::clamp(left_[i], 0, std::max(0, widest(shown) - cols_of(p)));
}

int App::rows_of(PaneId p) const { return body_rows(layout_.panes[index(p)], panes_[index(p)], footer_rows(p)); }

int App::cols_of(PaneId p) const { return std::max(1, inner_width(layout_.panes[index(p)])); }

PaneScroll App::scroll_of(PaneId p) const {
  const int i = index(p);
  PaneScroll at{.top = top_[i], .left = left_[i]};
  if (found_pane_ == p && found_ >= 0) {
    at.found = found_;
    at.found_begin = found_begin_;
    at.found_end = found_end_;
  }
  return at;
}

Frame App::frame_of(PaneId p) const {
  if (step_ && step_->pane() == p) return Frame::Stage;
  return p == focus_ ? Frame::Focused : Frame::Plain;
}

std::string App::status_text() const {
  if (step_) return step_->explanation() + std::string(kStepKeys);
  if (typing_search_) return fmt::format("/{}   Enter: find in {} · Esc: cancel", *typing_search_, pane_name(focus_));
  if (!message_.empty()) return message_;
  if (worker_.busy()) {
    const std::string at = progress_text(progress());
    return fmt::format("running {}{}{} · Ctrl-C: stop · F1: keys", running_, at.empty() ? "" : " · ", at);
  }
  if (editing_)
    return "Enter: run · Esc: leave the input · Tab: complete, or next pane on an empty line · F1: keys · "
           "Ctrl-D: quit";
  // one row of a 120-column terminal
  return fmt::format("{}: Tab pane · ↑↓ {} · [ ] history · s sort · < > · w wrap · / find · ←→ 1-9 tab · z zoom · "
                     "Enter input · F1",
                     pane_name(focus_), focus_ == PaneId::Kernels || linkable(focus_) ? "select" : "scroll");
}

void App::draw() {
  wnoutrefresh(stdscr);  // leaves stdscr untouched, so that waiting for a key never repaints it over the panes
  if (layout_.too_small) {
    draw_too_small();
    doupdate();
    return;
  }
  for (int i = 0; i < kPanes; i++) {
    const auto p = static_cast<PaneId>(i);
    if (!windows_[i]) continue;
    draw_pane(windows_[i], panes_[i], scroll_of(p), frame_of(p), footer_rows(p));
    if (p == PaneId::Repl) draw_input();
    wnoutrefresh(windows_[i].get());
  }
  draw_status();
  if (help_) draw_help();
  const Window& repl = windows_[index(PaneId::Repl)];
  const bool cursor = editing_ && !help_ && repl;
  curs_set(cursor ? 1 : 0);
  if (cursor) wnoutrefresh(repl.get());  // last, so that the terminal's cursor stands in the input line
  doupdate();
}

// On the pane's last row, under the newest output, as a terminal's prompt. A statement of several
// lines recalled from the history shows each line break as ↵.
void App::draw_input() const {
  const Window& w = windows_[index(PaneId::Repl)];
  const int y = layout_.panes[index(PaneId::Repl)].h - 1 - footer_rows(PaneId::Repl);
  const int cols = inner_width(layout_.panes[index(PaneId::Repl)]);
  const std::string_view typed_prompt = unfinished_.empty() ? kPrompt : kContinuation;
  const std::string prompt = input_.message().empty() ? std::string(typed_prompt) : printable(input_.message());
  const std::string text = printable(line_breaks_shown(input_.text()));
  const int at = display_width(printable(line_breaks_shown(input_.text().substr(0, input_.cursor()))));
  const int x = kInnerX + w.put(y, kInnerX, prompt, cols / 2, editing_ ? A_BOLD : A_DIM);
  const int room = kInnerX + cols - x;
  const int shift = std::max(0, at - room + 1);  // keeps the cursor in view on a long line
  w.put(y, x, std::string_view(text).substr(skip_columns(text, shift)), room, editing_ ? A_NORMAL : A_DIM);
  if (!editing_ && text.empty()) w.put(y, x, "(Enter to type here)", room, A_DIM);
  wmove(w.get(), y, std::min(x + at - shift, kInnerX + cols - 1));
}

void App::draw_status() const {
  const Window& w = status_window_;
  werase(w.get());
  const std::vector<std::string> lines = wrap(status_text(), COLS);
  const int attr = step_ ? A_BOLD : message_.empty() ? A_DIM : A_BOLD;
  for (int r = 0; r < layout_.status.h && r < static_cast<int>(lines.size()); r++) w.put(r, 0, lines[r], COLS, attr);
  wnoutrefresh(w.get());
}

void App::draw_help() const {
  const std::vector<std::string> lines = split_lines(keys_help());
  int width = 0;
  for (const std::string& l : lines) width = std::max(width, display_width(l));
  const int h = std::min(LINES - 2, static_cast<int>(lines.size()) + 2), wd = std::min(COLS - 2, width + 4);
  const Window w({(LINES - h) / 2, (COLS - wd) / 2, h, wd});
  werase(w.get());
  wattrset(w.get(), frame_attr(Frame::Focused));
  box_set(w.get(), WACS_VLINE, WACS_HLINE);
  wattrset(w.get(), A_NORMAL);
  w.put(0, 2, " Keys ", wd - 4, frame_attr(Frame::Focused) | A_REVERSE);
  for (int r = 0; r + 2 < h && r < static_cast<int>(lines.size()); r++) w.put(r + 1, 2, lines[r], wd - 4);
  wnoutrefresh(w.get());
}

void App::draw_too_small() const {
  const Window& w = screen_window_;
  werase(w.get());
  const std::string why = fmt::format(
      "tinyrepl's TUI needs a terminal of at least {}x{}; this one is {}x{}. Enlarge it, or press Ctrl-D to quit "
      "and run tinyrepl --plain.", kMinCols, kMinRows, COLS, LINES);
  const std::vector<std::string> lines = wrap(why, std::max(1, COLS - 2));
  const int y0 = std::max(0, (LINES - static_cast<int>(lines.size())) / 2);
  for (int r = 0; r < static_cast<int>(lines.size()) && y0 + r < LINES; r++)
    w.put(y0 + r, std::max(0, (COLS - display_width(lines[r])) / 2), lines[r], COLS, A_BOLD);
  wnoutrefresh(w.get());
}

}  // namespace tr::tui
