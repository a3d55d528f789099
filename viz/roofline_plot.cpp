#include "viz/roofline_plot.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tr {
namespace {

constexpr int kLabelWidth = 8;  // the GFLOPS labels left of the axis: "100000 |"

struct Grid {
  RooflineAxes axes;
  int rows, cols;  // of the plot, inside the axes
  std::vector<std::string> cells;

  int row(double flops) const {
    const double at = (axes.flops.hi - std::log10(flops)) / (axes.flops.hi - axes.flops.lo) * (rows - 1);
    return std::clamp(static_cast<int>(std::lround(at)), 0, rows - 1);
  }
  int col(double intensity) const {
    const double at = (std::log10(intensity) - axes.intensity.lo) / (axes.intensity.hi - axes.intensity.lo) * (cols - 1);
    return std::clamp(static_cast<int>(std::lround(at)), 0, cols - 1);
  }
  double intensity_at(int c) const {
    const double span = axes.intensity.hi - axes.intensity.lo;
    return std::pow(10.0, axes.intensity.lo + span * c / std::max(1, cols - 1));
  }
  void put(int r, int c, char ch) { cells[static_cast<size_t>(r)][static_cast<size_t>(c)] = ch; }
  // a roof's name on the row above it (below it at the top), ending at the right edge, where it fits
  void label(int r, std::string_view text) {
    const int at = r > 0 ? r - 1 : r + 1;
    if (static_cast<int>(text.size()) + 2 > cols || at >= rows) return;
    cells[static_cast<size_t>(at)].replace(static_cast<size_t>(cols) - text.size(), text.size(), text);
  }
};

void draw_roofs(Grid& g, const DevicePeaks& p) {
  const std::vector<ComputeRoof> roofs = compute_roofs(p);
  double top = 0;
  for (const ComputeRoof& r : roofs) top = std::max(top, r.flops);
  const std::optional<double> b = p.bandwidth.value;
  if (b) {
    int last = -1;
    for (int c = 0; c < g.cols; c++) {
      const double y = *b * g.intensity_at(c);
      if (top > 0 && y > top) break;
      const int r = g.row(y);
      for (int fill = last < 0 ? r : std::min(last - 1, g.rows - 1); fill >= r; fill--) g.put(fill, c, '/');
      last = r;
    }
  }
  for (const ComputeRoof& r : roofs) {
    const int row = g.row(r.flops);
    for (int c = b ? g.col(r.flops / *b) : 0; c < g.cols; c++) g.put(row, c, r.what == "tensor cores" ? '=' : '-');
    g.label(row, fmt::format("{} {} {:.4g} GFLOPS", p.device, r.what, r.flops / 1e9));
  }
}

}  // namespace

char plot_marker(int k) {
  if (k < 10) return static_cast<char>('0' + k);
  if (k < 36) return static_cast<char>('a' + k - 10);
  return '+';
}

RooflinePlot roofline_plot(const std::vector<RooflinePoint>& points, const std::vector<DevicePeaks>& peaks, int width,
                           int height, int selected) {
  RooflinePlot out;
  const int rows = height - 2, cols = width - kLabelWidth;
  if (rows < 3 || cols < 10) return out;
  Grid g{roofline_axes(points, peaks), rows, cols, std::vector<std::string>(static_cast<size_t>(rows), std::string(static_cast<size_t>(cols), ' '))};
  for (const DevicePeaks& p : peaks) draw_roofs(g, p);
  std::vector<const RooflinePoint*> order;
  for (const RooflinePoint& p : points)
    if (on_plot(p) && p.kernel.k != selected) order.push_back(&p);
  for (const RooflinePoint& p : points)
    if (on_plot(p) && p.kernel.k == selected) order.push_back(&p);
  for (const RooflinePoint* p : order) {
    const PlotMark m{g.row(p->flops_per_s), g.col(p->intensity), p->kernel.k};
    g.put(m.row, m.col, p->kernel.k == selected ? '@' : plot_marker(p->kernel.k));
    out.marks.push_back({m.row, m.col + kLabelWidth, m.k});
  }
  // the y axis: a label at each decade's row, in GFLOPS
  for (int r = 0; r < rows; r++) {
    std::string label;
    for (int d = g.axes.flops.hi; d >= g.axes.flops.lo; d--)
      if (g.row(std::pow(10.0, d)) == r) label = fmt::format("{:g}", std::pow(10.0, d - 9));
    out.lines.push_back(fmt::format("{:>{}} |", label.size() < kLabelWidth - 1 ? label : "", kLabelWidth - 2) + g.cells[static_cast<size_t>(r)]);
  }
  out.lines.push_back(std::string(kLabelWidth - 1, ' ') + "+" + std::string(static_cast<size_t>(cols), '-'));
  std::string x_labels(static_cast<size_t>(width), ' ');
  for (int d = g.axes.intensity.lo; d <= g.axes.intensity.hi; d++) {
    const std::string l = fmt::format("{:g}", std::pow(10.0, d));
    const int at = std::min(width - static_cast<int>(l.size()), kLabelWidth + g.col(std::pow(10.0, d)) - static_cast<int>(l.size()) / 2);
    if (at >= 0 && x_labels.substr(static_cast<size_t>(std::max(0, at - 1)), l.size() + 2).find_first_not_of(' ') == std::string::npos)
      x_labels.replace(static_cast<size_t>(at), l.size(), l);
  }
  out.lines.push_back(x_labels);
  return out;
}

}  // namespace tr
