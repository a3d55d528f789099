#pragma once
// Reads the lines of the plain REPL. On a terminal with GNU readline: editing, history kept in
// ~/.tinyrepl_history (read at the start, each statement appended as it runs) and tab completion. Otherwise (a pipe,
// or a build without readline) plain lines, with the prompt shown only to a terminal. On a terminal,
// Ctrl-C at the prompt drops what is typed, as a shell does.
#include <deque>
#include <functional>
#include <istream>
#include <string>
#include <string_view>

#include "repl/app/completion.h"

namespace tr::repl {

using Completer = std::function<Completion(std::string_view line, size_t cursor)>;

struct Input {
  enum class Kind { Line, Interrupt, End } kind = Kind::End;  // Interrupt: Ctrl-C; End: Ctrl-D or no more input
  std::string line;                                            // without its newline
};

class LineEditor {
 public:
  // in: where lines come from when readline is not used; terminal: in is a person's terminal.
  LineEditor(std::istream& in, bool terminal, Completer completer);
  ~LineEditor();
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  Input read(const std::string& prompt);
  // An answer to a question (:step's pause): a line, or `q` alone, which answers at once, no Enter needed.
  Input read_answer(const std::string& prompt);
  // A line that the next read() returns before reading anything (a statement typed at a pause).
  void push_back(std::string line) { pushed_.push_back(std::move(line)); }
  // Adds a statement, all its lines as one entry, to the history and its file (a terminal session
  // only: piped input is no one's history).
  void remember(const std::string& statement);

  bool terminal() const { return terminal_; }

 private:
  Input read_plain(const std::string& prompt);

  std::istream& in_;
  bool terminal_;
  bool readline_ = false;  // GNU readline reads the terminal
  Completer completer_;
  std::string history_file_;
  bool history_warned_ = false;
  std::deque<std::string> pushed_;
};

// $HOME/.tinyrepl_history, or "" when there is no HOME.
std::string history_path();

}  // namespace tr::repl
