#pragma once
// The roofline drawn in characters, for the TUI's Roofline pane: log-log axes of FLOP/B and GFLOPS, the
// memory roof as '/', each compute roof as '-' (the tensor cores' as '=') named above it, and each
// kernel that does FLOPs as its K (0-9, then a-z), the selected one as '@'. ASCII only, so that a
// column is a byte.
#include <string>
#include <vector>

#include "viz/roofline.h"

namespace tr {

struct PlotMark {
  int row = 0, col = 0;  // in lines, bytes
  int k = 0;
};

struct RooflinePlot {
  std::vector<std::string> lines{};
  std::vector<PlotMark> marks{};  // where each kernel stands, the selected one last
};

// `width` columns by `height` rows, the axes' labels included; `selected` is a K, or -1.
RooflinePlot roofline_plot(const std::vector<RooflinePoint>& points, const std::vector<DevicePeaks>& peaks, int width,
                           int height, int selected);
// The character that marks kernel K in the plot.
char plot_marker(int k);

}  // namespace tr
