#include "viz/tui/input_line.h"

#include <cstdlib>
#include <cstring>
#include <utility>

// readline's headers need stdio first
#include <readline/history.h>
#include <readline/readline.h>

namespace tr::tui {
namespace {

constexpr int kHistoryLines = 2000;  // lines of the file: time stamps and entries, as the plain REPL keeps it

InputLine* active = nullptr;

// What readline had before, given back when the TUI ends (the plain REPL may use readline after it).
struct SavedHooks {
  rl_getc_func_t* getc = rl_getc_function;
  rl_voidfunc_t* redisplay = rl_redisplay_function;
  rl_vintfunc_t* prep = rl_prep_term_function;
  rl_voidfunc_t* deprep = rl_deprep_term_function;
  rl_hook_func_t* available = rl_input_available_hook;
  rl_completion_func_t* attempt = rl_attempted_completion_function;
  rl_compdisp_func_t* display = rl_completion_display_matches_hook;
  FILE* out = rl_outstream;
  const char* basic_breaks = rl_basic_word_break_characters;
  const char* breaks = rl_completer_word_break_characters;
  int catch_signals = rl_catch_signals, catch_sigwinch = rl_catch_sigwinch, change_env = rl_change_environment;

  void restore() const {
    rl_getc_function = getc;
    rl_redisplay_function = redisplay;
    rl_prep_term_function = prep;
    rl_deprep_term_function = deprep;
    rl_input_available_hook = available;
    rl_attempted_completion_function = attempt;
    rl_completion_display_matches_hook = display;
    rl_outstream = out;
    rl_basic_word_break_characters = basic_breaks;
    rl_completer_word_break_characters = breaks;
    rl_catch_signals = catch_signals;
    rl_catch_sigwinch = catch_sigwinch;
    rl_change_environment = change_env;
  }
};

std::optional<SavedHooks>& saved() {
  static std::optional<SavedHooks> s;
  return s;
}

}  // namespace

struct ReadlineHooks {
  // Only called while feed() has bytes left; a NUL (readline's set-mark) if it ever asks for more,
  // since EOF would end the session.
  static int getc(FILE*) {
    if (!available()) return 0;
    return static_cast<unsigned char>(active->pending_[active->read_++]);
  }
  static int available() { return active->read_ < active->pending_.size(); }
  static void redisplay() {}  // the TUI draws the buffer after every key
  static void prep(int) {}    // curses owns the terminal's modes
  static void deprep() {}

  static void on_line(char* raw) {
    if (!raw) {
      active->eof_ = true;
      return;
    }
    const std::unique_ptr<char, decltype(&std::free)> line(raw, &std::free);
    active->lines_.emplace_back(raw);
  }

  static char* candidate(const char* text, int state) {
    if (state == 0) active->next_candidate_ = 0;
    while (active->next_candidate_ < active->candidates_.size()) {
      const std::string& c = active->candidates_[active->next_candidate_++];
      if (c.starts_with(text)) return strdup(c.c_str());  // readline frees it
    }
    return nullptr;
  }

  // Readline replaces the word from `start`; the host's word may begin elsewhere, so its candidates
  // are cut or extended to readline's word.
  static char** attempt(const char* text, int start, int end) {
    TuiCompletion c;
    try {
      if (active->complete_) c = active->complete_(rl_line_buffer, static_cast<size_t>(end));
    } catch (const std::exception&) {
      c = {};
    }
    rl_attempted_completion_over = !c.files;  // file names: readline's own completion
    if (c.files) return nullptr;
    const std::string_view line(rl_line_buffer, static_cast<size_t>(end));
    const auto from = static_cast<size_t>(start);
    active->candidates_.clear();
    if (c.start > line.size()) return nullptr;
    for (const std::string& w : c.candidates) {
      if (c.start >= from) {
        active->candidates_.push_back(std::string(line.substr(from, c.start - from)) + w);
      } else if (const std::string_view before = line.substr(c.start, from - c.start); w.starts_with(before)) {
        active->candidates_.push_back(w.substr(before.size()));
      }
    }
    return rl_completion_matches(text, candidate);
  }

  static void display(char** matches, int count, int) {
    active->matches_.assign(matches + 1, matches + 1 + count);
  }
};

void InputLine::remember(std::string_view input) {
  while (!input.empty() && (input.back() == '\n' || input.back() == ' ')) input.remove_suffix(1);  // a block's blank end
  if (input.empty()) return;
  const std::string entry(input);
  const HIST_ENTRY* last = history_length > 0 ? history_get(history_base + history_length - 1) : nullptr;
  if (last && entry == last->line) return;
  add_history(entry.c_str());
  using_history();  // Up starts from the newest entry, this one
  append_to_file();
}

// Appended at once, so that a session that dies keeps what it ran; a first session creates the file.
void InputLine::append_to_file() const {
  if (!history_file_.empty() && append_history(1, history_file_.c_str()) != 0) write_history(history_file_.c_str());
}

InputLine::InputLine(std::string history_file, Complete complete)
    : history_file_(std::move(history_file)),
      complete_(std::move(complete)),
      sink_(std::fopen("/dev/null", "w"), &std::fclose) {
  active = this;
  saved().emplace();
  rl_catch_signals = 0;      // curses and the TUI handle signals and resizes
  rl_catch_sigwinch = 0;
  rl_change_environment = 0;  // exported LINES/COLUMNS would pin curses to the first size
  rl_getc_function = ReadlineHooks::getc;
  rl_input_available_hook = ReadlineHooks::available;
  rl_redisplay_function = ReadlineHooks::redisplay;
  rl_prep_term_function = ReadlineHooks::prep;
  rl_deprep_term_function = ReadlineHooks::deprep;
  rl_attempted_completion_function = ReadlineHooks::attempt;
  rl_completion_display_matches_hook = ReadlineHooks::display;
  // the plain REPL's words: "x.su" and ":ke" are one word each
  rl_basic_word_break_characters = rl_completer_word_break_characters = " \t\n\"'`@$><=;|&{(,[)]+-*/%~!";
  rl_outstream = sink_.get();
  using_history();
  clear_history();
  // as the plain REPL keeps it (repl/app/line_editor.cpp): time-stamped entries, appended one by one
  history_comment_char = '#';
  history_write_timestamps = 1;
  history_multiline_entries = 1;
  if (!history_file_.empty()) read_history(history_file_.c_str());
  rl_callback_handler_install("", ReadlineHooks::on_line);
  rl_variable_bind("bell-style", "none");
}

InputLine::~InputLine() {
  rl_callback_handler_remove();
  if (!history_file_.empty()) history_truncate_file(history_file_.c_str(), kHistoryLines);
  saved()->restore();
  saved().reset();
  active = nullptr;
}

void InputLine::feed(std::string_view bytes) {
  pending_.assign(bytes);
  read_ = 0;
  while (read_ < pending_.size() && !eof_) {
    const size_t before = read_;
    rl_callback_read_char();
    if (read_ == before) break;
  }
  pending_.clear();
  read_ = 0;
}

std::optional<std::string> InputLine::take_line() {
  if (lines_.empty()) return std::nullopt;
  std::string line = std::move(lines_.front());
  lines_.pop_front();
  return line;
}

void InputLine::discard() { rl_replace_line("", 1); }

std::string_view InputLine::text() const { return rl_line_buffer ? std::string_view(rl_line_buffer, rl_end) : ""; }
size_t InputLine::cursor() const { return static_cast<size_t>(rl_point); }
std::string_view InputLine::message() const { return rl_display_prompt ? rl_display_prompt : ""; }

std::vector<std::string> InputLine::take_matches() { return std::exchange(matches_, {}); }

}  // namespace tr::tui
