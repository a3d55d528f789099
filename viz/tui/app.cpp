#include "viz/tui/app.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/device.h"
#include "core/render/render.h"
#include "viz/timings.h"
#include "viz/tui/pane_content.h"
#include "viz/tui/pane_draw.h"
#include "viz/tui/text.h"

namespace tr::tui {
namespace {

constexpr int ctrl(char c) { return c & 0x1f; }
constexpr int kEsc = 27;
constexpr int kFar = 1 << 24;  // Home and End: further than any pane scrolls

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

int backend_index(const std::string& name) {
  const auto& b = backends();
  return static_cast<int>(std::find(b.begin(), b.end(), name) - b.begin()) % static_cast<int>(b.size());
}

}  // namespace

App::App(TuiHost& host) : host_(host), input_(host.history_file, host.complete) {
  relayout();
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
  if (editing_) edit_key(k);
  else if (!step_ || !step_key(k)) pane_key(k);
  if (stale_) refresh();
}

void App::edit_key(const Key& k) {
  if (k.code) {
    switch (k.value) {
      case KEY_BTAB: return move_focus(-1);
      case KEY_PPAGE: return scroll(-rows_of(PaneId::Repl));
      case KEY_NPAGE: return scroll(rows_of(PaneId::Repl));
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
    case ctrl('C'):
      unfinished_.clear();
      stale_ = true;
      return input_.discard();
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
    if (step_->forward()) on_stage();
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
  if (k.code) {
    switch (k.value) {
      case KEY_BTAB: return move_focus(-1);
      case KEY_UP: return list ? move_selection(selected_ - 1) : scroll(-1);
      case KEY_DOWN: return list ? move_selection(selected_ + 1) : scroll(1);
      case KEY_PPAGE: return list ? move_selection(selected_ - page) : scroll(-page);
      case KEY_NPAGE: return list ? move_selection(selected_ + page) : scroll(page);
      case KEY_HOME: return list ? move_selection(0) : scroll(-kFar);
      case KEY_END: return list ? move_selection(kFar) : scroll(kFar);
      case KEY_LEFT: return set_tab(tab_ - 1);
      case KEY_RIGHT: return set_tab(tab_ + 1);
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
  } else if (v >= '1' && v <= '9') {
    set_tab(v - '1');
  } else if (v == kEsc && zoomed_) {
    zoomed_ = false;
    relayout();
  } else if (v == ctrl('D')) {
    quit_ = true;
  } else if (v == ':' || enter) {  // back to the input line, with the ':' of a meta command typed
    focus_ = PaneId::Repl;
    editing_ = true;
    if (zoomed_) relayout();
    if (v == ':') feed_input(":");
  }
}

void App::move_focus(int step) {
  focus_ = next_pane(focus_, step);
  editing_ = focus_ == PaneId::Repl;
  if (zoomed_) relayout();
}

void App::move_selection(int to) {
  const int n = static_cast<int>(kernel_runs(runs_).size());
  if (n > 0) selected_ = std::clamp(to, 0, n - 1);
  stale_ = true;
}

void App::scroll(int by) {
  const int p = static_cast<int>(focus_);
  const int last = static_cast<int>(panes_[p].lines.size()) - rows_of(focus_);
  top_[p] = std::clamp(top_[p] + by, 0, std::max(0, last));
}

void App::set_tab(int tab) {
  const int n = static_cast<int>(backends().size());
  if (tab < 0 || tab >= n) tab = (tab + n) % n;
  if (tab < 0 || tab >= n) return;  // a digit beyond the last tab
  tab_ = tab;
  tab_chosen_ = true;
  stale_ = true;
}

void App::submit(const std::string& typed) {
  const std::string input = unfinished_.empty() ? typed : unfinished_ + "\n" + typed;
  stale_ = true;  // the REPL pane shows the unfinished input
  if (host_.continues && host_.continues(input)) {
    unfinished_ = input;
    return;
  }
  unfinished_.clear();
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
  message_ = "running…";
  draw();
  message_.clear();
  const size_t before = history().size();
  TuiOutput out;
  try {
    out = host_.execute(line);
  } catch (const std::exception& e) {
    out.text = fmt::format("error: {}\n", e.what());
  }
  quit_ = out.quit;
  transcript_.add(line, out.text);
  stale_ = true;
  top_[static_cast<int>(PaneId::Repl)] = 0;
  const std::vector<RunRecord>& h = history();
  if (h.size() > before) adopt({h.begin() + static_cast<std::ptrdiff_t>(before), h.end()});
  else if (h.size() < before) adopt({});  // the history was cleared
}

void App::adopt(std::vector<RunRecord> runs) {
  runs_ = std::move(runs);
  selected_ = static_cast<int>(kernel_runs(runs_).size()) - 1;  // the kernel that computed the value, as :ast picks
  const std::vector<RunRecord>& h = history();
  const std::vector<std::string> table = split_lines(h.empty() ? "" : timings_table(h, 0));
  session_total_ = table.empty() ? "" : table.back();
  if (selected_ >= 0 && !tab_chosen_) {
    try {
      tab_ = backend_index(device(runs_[kernel_runs(runs_)[selected_]].kernel.device).backend());
    } catch (const std::exception&) {
      tab_ = 0;  // the device went away: any tab renders
    }
  }
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
  if (step_->stage().stage == Stage::Run && !step_->runs().empty()) adopt(step_->runs());
  relayout();
}

void App::end_step() {
  step_.reset();
  focus_ = PaneId::Repl;
  editing_ = true;
  relayout();
}

}  // namespace tr::tui
