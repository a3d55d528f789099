#include "viz/tui/pane_draw.h"

#include <algorithm>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "viz/tui/pane_wrap.h"
#include "viz/tui/text.h"

namespace tr::tui {
namespace {

void draw_frame(const Window& w, Frame frame) {
  WINDOW* win = w.get();
  wattrset(win, frame_attr(frame));
  switch (frame) {
    case Frame::Focused:
      wborder_set(win, WACS_T_VLINE, WACS_T_VLINE, WACS_T_HLINE, WACS_T_HLINE, WACS_T_ULCORNER, WACS_T_URCORNER,
                  WACS_T_LLCORNER, WACS_T_LRCORNER);
      break;
    case Frame::Stage:
      wborder_set(win, WACS_D_VLINE, WACS_D_VLINE, WACS_D_HLINE, WACS_D_HLINE, WACS_D_ULCORNER, WACS_D_URCORNER,
                  WACS_D_LLCORNER, WACS_D_LRCORNER);
      break;
    case Frame::Plain: box_set(win, WACS_VLINE, WACS_HLINE); break;
  }
  wattrset(win, A_NORMAL);
}

// The tabs as "1:c 2:llvm [3:opencl] … asm", shifted left when the selected one would not fit; a tab
// past the ninth has no digit key.
void draw_tabs(const Window& w, int y, int cols, const PaneText& p) {
  std::vector<std::string> labels;
  int sel_end = 0, width = 0;
  for (size_t i = 0; i < p.tabs.size(); i++) {
    const bool sel = static_cast<int>(i) == p.tab;
    const std::string label = i < 9 ? fmt::format("{}:{}", i + 1, p.tabs[i]) : p.tabs[i];
    labels.push_back(sel ? "[" + label + "]" : label);
    width += display_width(labels.back()) + 1;
    if (sel) sel_end = width - 1;
  }
  int skip = std::max(0, sel_end - cols);
  int x = kInnerX;
  for (size_t i = 0; i < labels.size(); i++) {
    std::string_view label = labels[i];
    const int lw = display_width(label) + 1;
    if (skip >= lw) {
      skip -= lw;
      continue;
    }
    label.remove_prefix(skip_columns(label, skip));
    skip = 0;
    const int attr = static_cast<int>(i) == p.tab ? A_REVERSE | A_BOLD : A_NORMAL;
    x += w.put(y, x, label, kInnerX + cols - x, attr);
    x += w.put(y, x, " ", kInnerX + cols - x);
  }
}

// The line from column `left` on, in its syntax colours; the match of a search over them.
void draw_line(const Window& w, int y, int cols, const std::string& line, const std::vector<Span>& spans, bool marked,
               bool linked, int left, std::optional<std::pair<size_t, size_t>> found) {
  const int base = (marked ? A_REVERSE : A_NORMAL) | (linked ? A_UNDERLINE : A_NORMAL);
  if (marked) w.fill(y, kInnerX, cols, base);
  const size_t from = skip_columns(line, left);
  int x = kInnerX;
  size_t at = 0;
  auto draw = [&](size_t end, int attr) {
    const size_t b = std::max(at, from);
    if (end > b) x += w.put(y, x, std::string_view(line).substr(b, end - b), kInnerX + cols - x, attr | base);
    at = std::max(at, end);
  };
  for (const Span& s : spans) {
    draw(s.begin, A_NORMAL);
    draw(s.end, style_attr(s.style));
  }
  draw(line.size(), A_NORMAL);
  if (found && found->second > from) {
    const size_t b = std::max(found->first, from);
    const int fx = kInnerX + display_width(std::string_view(line).substr(from, b - from));
    w.put(y, fx, std::string_view(line).substr(b, found->second - b), kInnerX + cols - fx, A_REVERSE | A_BOLD);
  }
}

}  // namespace

int body_rows(const Rect& r, const PaneText& p, int footer) {
  return std::max(0, r.h - 2 - footer - (p.tabs.empty() ? 0 : 1) - p.fixed);
}

void draw_pane(const Window& w, const PaneText& p, const PaneScroll& at, Frame frame, int footer) {
  if (!w) return;
  int rows = 0, cols = 0;
  getmaxyx(w.get(), rows, cols);
  werase(w.get());
  draw_frame(w, frame);
  const int inner = cols - 2;
  const int title_attr = frame == Frame::Plain ? A_BOLD : frame_attr(frame) | A_REVERSE;
  w.put(0, 2, fmt::format(" {} ", printable(p.title)), inner - 2, title_attr);
  int y = kInnerY;
  if (!p.tabs.empty()) draw_tabs(w, y++, inner, p);
  const int body = body_rows({0, 0, rows, cols}, p, footer);
  const int bottom = rows - 1 - footer;  // the frame's bottom row, or the footer's first
  const auto draw = [&](int i) {
    const auto found = i == at.found ? std::optional(std::pair(at.found_begin, at.found_end)) : std::nullopt;
    // a linked line: a mark on the frame beside it, where a long pane's eye finds it, and underlined
    if (p.is_linked(i)) w.put(y, 0, "▶", 1, frame_attr(frame) | A_BOLD);
    draw_line(w, y++, inner, p.lines[i], p.spans[i], p.marked(i), p.is_linked(i), at.left, found);
  };
  const int n = static_cast<int>(p.lines.size());
  for (int i = 0; i < p.fixed && i < n && y < bottom; i++) draw(i);
  for (int i = p.fixed + at.top; i < n && y < bottom; i++) draw(i);
  // lines above, below or beside the view: say so on the frame
  const int below = n - p.fixed - at.top - body;
  const int right = widest(p) - at.left - inner;
  std::vector<std::string> beyond;
  if (at.top > 0) beyond.push_back(fmt::format("↑{}", at.top));
  if (below > 0) beyond.push_back(fmt::format("↓{}", below));
  if (at.left > 0) beyond.push_back(fmt::format("←{}", at.left));
  if (right > 0) beyond.push_back(fmt::format("→{}", right));
  if (!beyond.empty()) {
    const std::string text = fmt::format(" {} ", fmt::join(beyond, " "));
    w.put(rows - 1, std::max(2, cols - 2 - display_width(text)), text, inner - 2, frame_attr(frame));
  }
}

}  // namespace tr::tui
