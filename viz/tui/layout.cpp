#include "viz/tui/layout.h"

#include <algorithm>

namespace tr::tui {

std::string_view pane_name(PaneId p) {
  static constexpr std::array<std::string_view, kPanes> names{"Kernels", "Timings",  "AST", "UOps",
                                                               "Roofline", "Source", "REPL"};
  return names[static_cast<int>(p)];
}

PaneId next_pane(PaneId p, int step) {
  return static_cast<PaneId>(((static_cast<int>(p) + step) % kPanes + kPanes) % kPanes);
}

Layout layout(int cols, int rows, std::optional<PaneId> zoomed, int status_rows) {
  Layout l;
  if (cols < kMinCols || rows < kMinRows) {
    l.too_small = true;
    return l;
  }
  status_rows = std::clamp(status_rows, 1, kMaxStatusRows);
  l.status = {rows - status_rows, 0, status_rows, cols};
  const int body = rows - status_rows;
  if (zoomed) {
    l.panes[static_cast<int>(*zoomed)] = {0, 0, body, cols};
    return l;
  }
  // The top row lists kernels, so it needs few lines; the tree, listing, roofline, source and session below
  // share the rest.
  const int top = std::max(6, body / 4);
  const int middle = (body - top + 1) / 2;
  const int bottom = body - top - middle;
  // the timings table, with its bars, is the widest text of the top row; Kernels' rows need 47 columns
  const int left = cols * 21 / 50;
  const int half = cols / 2;
  // the middle row's third pane, the roofline's plot, beside the tree and the listing: a quarter
  const int ast = cols * 2 / 5, uops = cols * 7 / 20;
  l.panes[static_cast<int>(PaneId::Kernels)] = {0, 0, top, left};
  l.panes[static_cast<int>(PaneId::Timings)] = {0, left, top, cols - left};
  l.panes[static_cast<int>(PaneId::Ast)] = {top, 0, middle, ast};
  l.panes[static_cast<int>(PaneId::Uops)] = {top, ast, middle, uops};
  l.panes[static_cast<int>(PaneId::Roofline)] = {top, ast + uops, middle, cols - ast - uops};
  l.panes[static_cast<int>(PaneId::Source)] = {top + middle, 0, bottom, half};
  l.panes[static_cast<int>(PaneId::Repl)] = {top + middle, half, bottom, cols - half};
  return l;
}

}  // namespace tr::tui
