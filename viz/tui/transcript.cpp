#include "viz/tui/transcript.h"

#include "viz/tui/text.h"

namespace tr::tui {
namespace {

constexpr size_t kMaxLines = 5000;

}  // namespace

void Transcript::add(std::string_view input, std::string_view output) {
  Entry e{.input = printable(input), .output = {}};
  for (const std::string& line : split_lines(output)) e.output.push_back(printable(line));
  lines_ += e.rows();
  entries_.push_back(std::move(e));
  while (lines_ > kMaxLines && entries_.size() > 1) {
    lines_ -= entries_.front().rows();
    entries_.pop_front();
  }
}

PaneText Transcript::pane() const {
  PaneText p{.title = "REPL"};
  for (auto e = entries_.rbegin(); e != entries_.rend(); ++e) {
    if (!e->input.empty()) {
      p.lines.push_back(std::string(kPrompt) + e->input);
      p.spans.push_back({{.begin = 0, .end = kPrompt.size(), .style = Style::Comment}});
    }
    for (const std::string& line : e->output) {
      p.lines.push_back(line);
      p.spans.emplace_back();
    }
  }
  return p;
}

}  // namespace tr::tui
