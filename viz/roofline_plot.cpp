#include "viz/roofline_plot.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tr {
namespace {

std::string decade(int d) { return fmt::format("{:g}", std::pow(10.0, d)); }

struct Grid {
  RooflineAxes axes;
  int rows, cols;  // of the plot, inside the axes
  std::vector<std::string> cells;
  std::vector<std::pair<int, int>> taken{};  // the kernels' cells, which no label covers

  int row(double flops) const {
    const double at = (1 - axes.flops.fraction(flops)) * (rows - 1);
    return std::clamp(static_cast<int>(std::lround(at)), 0, rows - 1);
  }
  int col(double intensity) const {
    const double at = axes.intensity.fraction(intensity) * (cols - 1);
    return std::clamp(static_cast<int>(std::lround(at)), 0, cols - 1);
  }
  double intensity_at(int c) const {
    const double span = axes.intensity.hi - axes.intensity.lo;
    return std::pow(10.0, axes.intensity.lo + span * c / std::max(1, cols - 1));
  }
  void put(int r, int c, char ch) { cells[static_cast<size_t>(r)][static_cast<size_t>(c)] = ch; }
  // A roof's name on the row above it, else below it, ending at the right edge and covering no kernel:
  // the first of the names (longest first) that fits.
  void label(int r, const std::vector<std::string>& names) {
    for (const std::string& text : names) {
      const int from = cols - static_cast<int>(text.size());
      if (from < 2) continue;
      for (const int at : {r - 1, r + 1}) {
        const bool free = std::none_of(taken.begin(), taken.end(),
                                       [&](const auto& t) { return t.first == at && t.second >= from; });
        if (at < 0 || at >= rows || !free) continue;
        cells[static_cast<size_t>(at)].replace(static_cast<size_t>(from), text.size(), text);
        return;
      }
    }
  }
};

void draw_roofs(Grid& g, const DevicePeaks& p, bool name_device) {
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
    const std::string figure = fmt::format("{:.4g} GFLOPS", r.flops / 1e9);
    std::vector<std::string> names{r.what + " " + figure, r.what};
    if (name_device) names.insert(names.begin(), p.device + " " + names.front());
    g.label(row, names);
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
  const RooflineAxes axes = roofline_axes(points, peaks);
  // the GFLOPS labels left of the axis, as wide as the widest: "1000 |"
  size_t widest = 0;
  for (int d = axes.flops.lo; d <= axes.flops.hi; d++) widest = std::max(widest, decade(d - 9).size());
  const int left = static_cast<int>(widest) + 2;
  const int rows = height - 2, cols = width - left;
  if (rows < 3 || cols < 10) return out;
  Grid g{axes, rows, cols, std::vector<std::string>(static_cast<size_t>(rows), std::string(static_cast<size_t>(cols), ' '))};
  std::vector<PlotMark> marks;
  for (const bool last : {false, true})
    for (const RooflinePoint& p : points)
      if (on_plot(p) && (p.kernel.k == selected) == last) marks.push_back({g.row(p.flops_per_s), g.col(p.intensity), p.kernel.k});
  for (const PlotMark& m : marks) g.taken.emplace_back(m.row, m.col);
  for (const DevicePeaks& p : peaks) draw_roofs(g, p, peaks.size() > 1);
  for (const PlotMark& m : marks) {
    g.put(m.row, m.col, m.k == selected ? '@' : plot_marker(m.k));
    out.marks.push_back({m.row, m.col + left, m.k});
  }
  // the y axis: each decade's label at its row
  for (int r = 0; r < rows; r++) {
    std::string label;
    for (int d = axes.flops.hi; d >= axes.flops.lo; d--)
      if (g.row(std::pow(10.0, d)) == r) label = decade(d - 9);
    out.lines.push_back(fmt::format("{:>{}} |", label, left - 2) + g.cells[static_cast<size_t>(r)]);
  }
  out.lines.push_back(std::string(static_cast<size_t>(left - 1), ' ') + "+" + std::string(static_cast<size_t>(cols), '-'));
  // the x axis: each decade's label centred under its column, where it does not run into the one before
  std::string x_labels(static_cast<size_t>(width), ' ');
  int free_from = 0;
  for (int d = axes.intensity.lo; d <= axes.intensity.hi; d++) {
    const std::string l = decade(d);
    const int at = std::min(width - static_cast<int>(l.size()), left + g.col(std::pow(10.0, d)) - static_cast<int>(l.size()) / 2);
    if (at < free_from) continue;
    x_labels.replace(static_cast<size_t>(at), l.size(), l);
    free_from = at + static_cast<int>(l.size()) + 1;
  }
  out.lines.push_back(x_labels);
  return out;
}

}  // namespace tr
