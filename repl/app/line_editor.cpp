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

namespace tr::repl {
namespace {

constexpr int kHistoryLines = 1000;

volatile std::sig_atomic_t interrupted = 0;

void on_interrupt(int) { interrupted = 1; }

// Ctrl-C goes to on_interrupt while the prompt waits; at any other time it ends the program as usual,
// since a running kernel cannot be stopped halfway.
class CatchInterrupt {
 public:
  CatchInterrupt() {
    interrupted = 0;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: a blocked read returns EINTR
    sigaction(SIGINT, &sa, &old_);
  }
  ~CatchInterrupt() { sigaction(SIGINT, &old_, nullptr); }
  CatchInterrupt(const CatchInterrupt&) = delete;
  CatchInterrupt& operator=(const CatchInterrupt&) = delete;

 private:
  struct sigaction old_ {};
};

// Waits until fd has input; false when Ctrl-C comes first. SIGINT stays blocked outside pselect, so
// that one arriving just before the wait still ends it instead of being missed.
bool wait_for_input(int fd) {
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigprocmask(SIG_BLOCK, &block, &old);
  bool ready = false;
  while (!interrupted && !ready) {
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(fd, &fds);
    const int n = pselect(fd + 1, &fds, nullptr, nullptr, nullptr, &old);
    ready = n > 0 || (n < 0 && errno != EINTR);  // a failing fd: the read that follows reports it
  }
  sigprocmask(SIG_SETMASK, &old, nullptr);
  return !interrupted;
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

// readline's callback interface, so that the wait for a key can notice Ctrl-C.
Input read_with_readline(const std::string& prompt) {
  const CatchInterrupt catching;
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
  rl_catch_signals = 0;  // Ctrl-C is the prompt's (CatchInterrupt), not readline's
  rl_completer_word_break_characters = kWordBreaks.data();
  rl_attempted_completion_function = attempt_completion;
  stifle_history(kHistoryLines);
  history_file_ = history_path();
  if (!history_file_.empty()) read_history(history_file_.c_str());  // a first session has none yet
#endif
}

LineEditor::~LineEditor() {
#ifdef TINYREPL_HAVE_READLINE
  if (!readline_) return;
  if (!history_file_.empty() && write_history(history_file_.c_str()) != 0)
    std::fprintf(stderr, "tinyrepl: cannot save the history to %s\n", history_file_.c_str());
  rl_attempted_completion_function = nullptr;
  active_completer = nullptr;
#endif
}

Input LineEditor::read(const std::string& prompt) {
#ifdef TINYREPL_HAVE_READLINE
  if (readline_) return read_with_readline(prompt);
#endif
  return read_plain(prompt);
}

Input LineEditor::read_plain(const std::string& prompt) {
  std::optional<CatchInterrupt> catching;
  if (terminal_) {
    catching.emplace();
    std::cout << prompt << std::flush;
  }
  // a terminal hands over whole lines, so once fd 0 is readable getline does not wait for long
  const bool from_terminal = terminal_ && &in_ == &std::cin;
  std::string line;
  if ((from_terminal && !wait_for_input(STDIN_FILENO)) || !std::getline(in_, line)) {
    if (!interrupted) return {Input::Kind::End, ""};
    in_.clear();
    std::cout << "^C\n";
    return {Input::Kind::Interrupt, ""};
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return {Input::Kind::Line, line};
}

void LineEditor::remember(const std::string& line) {
#ifdef TINYREPL_HAVE_READLINE
  if (readline_ && !line.empty()) add_history(line.c_str());
#else
  (void)line;
#endif
}

}  // namespace tr::repl
