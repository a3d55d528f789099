#pragma once
// The REPL pane's scrollback: each input line with what it printed, oldest first, as a terminal
// shows them, so that the newest result stands right above the input line; the oldest entries go
// beyond a few thousand lines.
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "viz/tui/pane_text.h"

namespace tr::tui {

class Transcript {
 public:
  // `input` is echoed after the prompt (its further lines after the continuation prompt); empty for
  // a message of the TUI itself.
  void add(std::string_view input, std::string_view output);
  // The entries as the pane's lines (the prompt dimmed), oldest first; after them the lines typed so
  // far of an input that continues. Anchored at the bottom.
  PaneText pane(std::string_view unfinished) const;

 private:
  struct Entry {
    std::vector<std::string> input{};
    std::vector<std::string> output{};
    size_t rows() const { return input.size() + output.size(); }
  };
  static void show(const Entry& e, PaneText& p);
  std::deque<Entry> entries_;
  size_t lines_ = 0;
};

inline constexpr std::string_view kPrompt = ">>> ";
inline constexpr std::string_view kContinuation = "... ";

}  // namespace tr::tui
