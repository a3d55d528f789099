#pragma once
// Where each pane goes for a terminal size: rows of two panes (three in the middle) read left to right,
// top to bottom, which is also the order Tab moves the focus in. Pure arithmetic, so it is tested
// without a terminal.
#include <array>
#include <optional>
#include <string_view>

namespace tr::tui {

enum class PaneId : int { Kernels, Timings, Ast, Uops, Roofline, Source, Repl };
constexpr int kPanes = 7;
std::string_view pane_name(PaneId p);  // "Kernels", "AST", ...
PaneId next_pane(PaneId p, int step);  // step +1 / -1, wrapping around

constexpr int kMinCols = 80, kMinRows = 24;
constexpr int kMaxStatusRows = 4;

struct Rect {
  int y = 0, x = 0, h = 0, w = 0;
  bool empty() const { return h <= 0 || w <= 0; }
};

struct Layout {
  bool too_small = false;
  std::array<Rect, kPanes> panes{};  // empty for a pane hidden by the zoom
  Rect status{};                     // the key hints or the :step explanation, along the bottom
};

// status_rows: how many rows the bottom line needs (1, more while :step explains a stage).
Layout layout(int cols, int rows, std::optional<PaneId> zoomed, int status_rows);

}  // namespace tr::tui
