#pragma once
// The REPL pane's scrollback: each input line with what it printed, the newest entry first so that
// a result appears right under the input line; the oldest entries go beyond a few thousand lines.
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "viz/tui/pane_text.h"

namespace tr::tui {

class Transcript {
 public:
  // `input` is echoed after the prompt; empty for a message of the TUI itself.
  void add(std::string_view input, std::string_view output);
  // The entries as the pane's lines (the prompt dimmed), newest first.
  PaneText pane() const;

 private:
  struct Entry {
    std::string input{};
    std::vector<std::string> output{};
    size_t rows() const { return output.size() + (input.empty() ? 0 : 1); }
  };
  std::deque<Entry> entries_;
  size_t lines_ = 0;
};

inline constexpr std::string_view kPrompt = ">>> ";

}  // namespace tr::tui
