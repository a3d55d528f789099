#pragma once
// The REPL pane's input line: GNU readline through its callback interface. Curses reads the keys
// and hands readline their bytes; readline edits the line (its key bindings and ~/.inputrc, history,
// completion) and the TUI draws readline's buffer inside the pane. Readline's state is global, so
// only one InputLine may exist at a time.
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/tui/tui.h"

namespace tr::tui {

class InputLine {
 public:
  using Complete = decltype(TuiHost::complete);

  InputLine(std::string history_file, Complete complete);
  ~InputLine();  // writes the history file and gives readline back its terminal hooks
  InputLine(const InputLine&) = delete;
  InputLine& operator=(const InputLine&) = delete;

  void feed(std::string_view bytes);
  std::optional<std::string> take_line();  // the next line readline accepted
  bool at_eof() const { return eof_; }     // Ctrl-D on an empty line
  void discard();                          // drops the line being edited (Ctrl-C)
  // One history entry for an input as it runs: the lines of a statement that continued over several
  // are one entry, as the plain REPL keeps them.
  void remember(std::string_view input);

  std::string_view text() const;
  size_t cursor() const;           // byte offset into text()
  std::string_view message() const;  // readline's own prompt while it searches history (Ctrl-R)
  // The candidates readline would list (a second Tab with several matches), once.
  std::vector<std::string> take_matches();

 private:
  friend struct ReadlineHooks;
  void append_to_file() const;

  std::string history_file_;
  Complete complete_;
  std::unique_ptr<FILE, int (*)(FILE*)> sink_;  // readline's own output goes nowhere: curses owns the screen
  std::string pending_;
  size_t read_ = 0;
  std::deque<std::string> lines_;
  bool eof_ = false;
  std::vector<std::string> candidates_;
  size_t next_candidate_ = 0;
  std::vector<std::string> matches_;
};

}  // namespace tr::tui
