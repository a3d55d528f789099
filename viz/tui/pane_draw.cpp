#include "viz/tui/pane_draw.h"

#include <algorithm>

#include <fmt/format.h>

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

// The tabs as "1:c 2:llvm [3:opencl] …", shifted left when the selected one would not fit.
void draw_tabs(const Window& w, int y, int cols, const PaneText& p) {
  std::vector<std::string> labels;
  int sel_end = 0, width = 0;
  for (size_t i = 0; i < p.tabs.size(); i++) {
    const bool sel = static_cast<int>(i) == p.tab;
    const std::string label = fmt::format("{}:{}", i + 1, p.tabs[i]);
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

void draw_line(const Window& w, int y, int cols, const std::string& line, const std::vector<Span>& spans, bool marked) {
  const int base = marked ? A_REVERSE : A_NORMAL;
  if (marked) w.fill(y, kInnerX, cols, base);
  int x = kInnerX;
  size_t at = 0;
  auto draw = [&](size_t end, int attr) {
    if (end > at) x += w.put(y, x, std::string_view(line).substr(at, end - at), kInnerX + cols - x, attr | base);
    at = end;
  };
  for (const Span& s : spans) {
    draw(s.begin, A_NORMAL);
    draw(s.end, style_attr(s.style));
  }
  draw(line.size(), A_NORMAL);
}

}  // namespace

int body_rows(const Rect& r, const PaneText& p, int header) {
  return std::max(0, r.h - 2 - header - (p.tabs.empty() ? 0 : 1));
}

void draw_pane(const Window& w, const PaneText& p, int top, Frame frame, int header) {
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
  y += header;
  for (int i = top; y < rows - 1 && i < static_cast<int>(p.lines.size()); i++, y++)
    draw_line(w, y, inner, p.lines[i], p.spans[i], p.marked(i));
  // lines above or below the view: say so on the frame
  const int below = static_cast<int>(p.lines.size()) - top - body_rows({0, 0, rows, cols}, p, header);
  if (top > 0 || below > 0)
    w.put(rows - 1, std::max(2, cols - 18),
          fmt::format(" {}{}{} ", top > 0 ? fmt::format("↑{}", top) : "", top > 0 && below > 0 ? " " : "",
                      below > 0 ? fmt::format("↓{}", below) : ""),
          16, frame_attr(frame));
}

}  // namespace tr::tui
