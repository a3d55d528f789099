#include "viz/tui/transcript.h"

#include "viz/tui/text.h"

namespace tr::tui {
namespace {

constexpr size_t kMaxLines = 5000;

}  // namespace

void Transcript::add(std::string_view input, std::string_view output) {
  Entry e;
  for (const std::string& line : split_lines(input)) e.input.push_back(printable(line));
  for (const std::string& line : split_lines(output)) e.output.push_back(printable(line));
  lines_ += e.rows();
  entries_.push_back(std::move(e));
  while (lines_ > kMaxLines && entries_.size() > 1) {
    lines_ -= entries_.front().rows();
    entries_.pop_front();
  }
}

void Transcript::show(const Entry& e, PaneText& p) {
  for (size_t i = 0; i < e.input.size(); i++) {
    const std::string_view prompt = i == 0 ? kPrompt : kContinuation;
    p.lines.push_back(std::string(prompt) + e.input[i]);
    p.spans.push_back({{.begin = 0, .end = prompt.size(), .style = Style::Comment}});
  }
  for (const std::string& line : e.output) {
    p.lines.push_back(line);
    p.spans.emplace_back();
  }
}

PaneText Transcript::pane(std::string_view unfinished) const {
  PaneText p{.title = "REPL"};
  for (const Entry& e : entries_) show(e, p);
  Entry typed;
  for (const std::string& line : split_lines(unfinished)) typed.input.push_back(printable(line));
  show(typed, p);
  p.anchor = static_cast<int>(p.lines.size());
  return p;
}

}  // namespace tr::tui
