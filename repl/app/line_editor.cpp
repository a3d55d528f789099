#include "repl/app/line_editor.h"

#include <signal.h>
#include <sys/select.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <vector>

#ifdef TINYREPL_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

#include "core/base/interrupt.h"

namespace tr::repl {
namespace {

constexpr int kHistoryLines = 1000;

// Waits until fd has input; false when Ctrl-C comes first, which it answers. SIGINT stays blocked
// outside pselect, so that one arriving just before the wait still ends it instead of being missed.
bool wait_for_input(int fd) {
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigprocmask(SIG_BLOCK, &block, &old);
  bool ready = false;
  while (!interrupted() && !ready) {
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(fd, &fds);
    const int n = pselect(fd + 1, &fds, nullptr, nullptr, nullptr, &old);
    ready = n > 0 || (n < 0 && errno != EINTR);  // a failing fd: the read that follows reports it
  }
  sigprocmask(SIG_SETMASK, &old, nullptr);
  if (!interrupted()) return true;
  clear_interrupt();
  return false;
}

#ifdef TINYREPL_HAVE_READLINE
// readline is one global state with C callbacks: the editor that owns it is remembered here.
const Completer* active_completer = nullptr;
std::vector<std::string> pending;  // the candidates readline is asking for, one by one
size_t pending_next = 0;
std::optional<std::string> got;    // the line the callback interface handed over
bool got_end = false;

char* next_candidate(const char*, int state) {
  if (state == 0) pending_next = 0;
  if (pending_next >= pending.size()) return nullptr;
  return strdup(pending[pending_next++].c_str());  // readline frees it
}

char** attempt_completion(const char*, int, int end) {
  const Completion c = (*active_completer)(rl_line_buffer, static_cast<size_t>(end));
  if (c.files) return nullptr;  // readline's own file name completion
  rl_attempted_completion_over = 1;
  // a command name is followed by its arguments; a name or a method may go on with '(' or '.'
  rl_completion_append_character = c.candidates.size() == 1 && c.candidates[0].starts_with(':') ? ' ' : '\0';
  pending = c.candidates;
  return rl_completion_matches("", next_candidate);
}

void on_line(char* line) {
  rl_callback_handler_remove();  // the prompt is done: no redisplay of it after the line
  if (!line) {
    got_end = true;
    return;
  }
  got = line;
  std::free(line);
}

// readline's callback interface, so that the wait for a key can notice Ctrl-C. With q_answers, a
// buffer of `q` alone is the answer at once.
Input read_with_readline(const std::string& prompt, bool q_answers) {
  got.reset();
  got_end = false;
  rl_callback_handler_install(prompt.c_str(), on_line);
  while (!got && !got_end) {
    if (!wait_for_input(fileno(rl_instream))) {
      rl_free_line_state();
      rl_callback_sigcleanup();
      rl_callback_handler_remove();
      std::fputs("^C\n", rl_outstream);
      return {Input::Kind::Interrupt, ""};
    }
    rl_callback_read_char();
    if (q_answers && !got && !got_end && std::string_view(rl_line_buffer) == "q") {
      rl_callback_handler_remove();
      std::fputs("\n", rl_outstream);
      return {Input::Kind::Line, "q"};
    }
  }
  if (got) return {Input::Kind::Line, *got};
  rl_callback_handler_remove();
  return {Input::Kind::End, ""};
}
#endif

}  // namespace

std::string history_path() {
  const char* home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.tinyrepl_history" : "";
}

LineEditor::LineEditor(std::istream& in, bool terminal, Completer completer)
    : in_(in), terminal_(terminal), completer_(std::move(completer)) {
#ifdef TINYREPL_HAVE_READLINE
  readline_ = terminal_ && &in_ == &std::cin && active_completer == nullptr;
  if (!readline_) return;
  active_completer = &completer_;
  rl_readline_name = "tinyrepl";
  rl_catch_signals = 0;  // Ctrl-C is the program's (ctrl_c.h), which the prompt's wait notices
  rl_completer_word_break_characters = kWordBreaks.data();
  rl_attempted_completion_function = attempt_completion;
  stifle_history(kHistoryLines);
  // a statement of several lines is one entry: the file marks where each starts with its time stamp
  history_comment_char = '#';  // readline writes a time stamp only after this character
  history_write_timestamps = 1;
  history_multiline_entries = 1;
  history_file_ = history_path();
  if (!history_file_.empty()) read_history(history_file_.c_str());  // a first session has none yet
#endif
}

LineEditor::~LineEditor() {
#ifdef TINYREPL_HAVE_READLINE
  if (!readline_) return;
  // the file has a time stamp line before each entry
  if (!history_file_.empty()) history_truncate_file(history_file_.c_str(), 2 * kHistoryLines);
  rl_attempted_completion_function = nullptr;
  active_completer = nullptr;
#endif
}

Input LineEditor::read(const std::string& prompt) {
  if (!pushed_.empty()) {
    Input in{Input::Kind::Line, std::move(pushed_.front())};
    pushed_.pop_front();
    return in;
  }
#ifdef TINYREPL_HAVE_READLINE
  if (readline_) return read_with_readline(prompt, false);
#endif
  return read_plain(prompt);
}

Input LineEditor::read_answer(const std::string& prompt) {
#ifdef TINYREPL_HAVE_READLINE
  if (readline_) return read_with_readline(prompt, true);
#endif
  return read_plain(prompt);
}

Input LineEditor::read_plain(const std::string& prompt) {
  if (terminal_) std::cout << prompt << std::flush;
  // a terminal hands over whole lines, so once fd 0 is readable getline does not wait for long
  const bool from_terminal = terminal_ && &in_ == &std::cin;
  if (from_terminal && !wait_for_input(STDIN_FILENO)) {
    std::cout << "^C\n";
    return {Input::Kind::Interrupt, ""};
  }
  std::string line;
  if (!std::getline(in_, line)) return {Input::Kind::End, ""};
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return {Input::Kind::Line, line};
}

void LineEditor::remember(const std::string& statement) {
#ifdef TINYREPL_HAVE_READLINE
  if (!readline_ || statement.empty()) return;
  add_history(statement.c_str());
  if (history_file_.empty()) return;
  // appended at once, so that a session that dies keeps what it ran; a first session has no file yet
  if (append_history(1, history_file_.c_str()) != 0 && write_history(history_file_.c_str()) != 0 && !history_warned_) {
    std::fprintf(stderr, "tinyrepl: cannot save the history to %s\n", history_file_.c_str());
    history_warned_ = true;
  }
#else
  (void)statement;
#endif
}

}  // namespace tr::repl
