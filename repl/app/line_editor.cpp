#include "repl/app/line_editor.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#ifdef TINYREPL_HAVE_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

namespace tr::repl {
namespace {

constexpr int kHistoryLines = 1000;

#ifdef TINYREPL_HAVE_READLINE
// readline is one global state with C callbacks: the editor that owns it is remembered here.
const Completer* active_completer = nullptr;
std::vector<std::string> pending;  // the candidates readline is asking for, one by one
size_t pending_next = 0;

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

std::optional<std::string> LineEditor::read(const std::string& prompt) {
#ifdef TINYREPL_HAVE_READLINE
  if (readline_) {
    char* line = readline(prompt.c_str());
    if (!line) return std::nullopt;
    std::string out(line);
    std::free(line);
    return out;
  }
#endif
  if (terminal_) std::cout << prompt << std::flush;
  std::string line;
  if (!std::getline(in_, line)) return std::nullopt;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

void LineEditor::remember(const std::string& line) {
#ifdef TINYREPL_HAVE_READLINE
  if (readline_ && !line.empty()) add_history(line.c_str());
#else
  (void)line;
#endif
}

}  // namespace tr::repl
