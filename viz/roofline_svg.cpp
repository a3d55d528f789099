#include "viz/roofline_svg.h"

#include <cmath>

#include <fmt/format.h>

namespace tr {
namespace {

constexpr double kWidth = 760, kLeft = 80, kRight = 180, kTop = 48, kPlot = 420, kLine = 16;

std::string escaped(std::string_view s) {
  std::string out;
  for (const char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string_view colour(Bound b) {
  switch (b) {
    case Bound::Memory: return "#1f77b4";
    case Bound::Compute: return "#d62728";
    case Bound::Launch: return "#7f7f7f";
    case Bound::Unknown: return "#000000";
  }
  return "#000000";
}

// Pixels of a point on the axes.
struct Scale {
  RooflineAxes axes;
  double width = kWidth - kLeft - kRight;
  double x(double intensity) const {
    return kLeft + axes.intensity.fraction(intensity) * width;
  }
  double y(double flops) const {
    return kTop + kPlot - axes.flops.fraction(flops) * kPlot;
  }
  double x_lo() const { return std::pow(10.0, axes.intensity.lo); }
  double x_hi() const { return std::pow(10.0, axes.intensity.hi); }
  double y_lo() const { return std::pow(10.0, axes.flops.lo); }
};

std::string axes_svg(const Scale& s) {
  const double right = kLeft + s.width, bottom = kTop + kPlot;
  std::string out = fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#000"/>)" "\n", kLeft,
                                kTop, s.width, kPlot);
  for (int d = s.axes.intensity.lo; d <= s.axes.intensity.hi; d++) {
    const double x = s.x(std::pow(10.0, d));
    out += fmt::format(R"(<line x1="{0:.1f}" y1="{1}" x2="{0:.1f}" y2="{2}" stroke="#ddd"/>)"
                       R"(<text x="{0:.1f}" y="{3}" text-anchor="middle">{4:g}</text>)" "\n",
                       x, kTop, bottom, bottom + kLine, std::pow(10.0, d));
  }
  for (int d = s.axes.flops.lo; d <= s.axes.flops.hi; d++) {
    const double y = s.y(std::pow(10.0, d));
    out += fmt::format(R"(<line x1="{0}" y1="{1:.1f}" x2="{2:.1f}" y2="{1:.1f}" stroke="#ddd"/>)"
                       R"(<text x="{3}" y="{1:.1f}" text-anchor="end" dominant-baseline="middle">{4:g}</text>)" "\n",
                       kLeft, y, right, kLeft - 6, std::pow(10.0, d - 9));
  }
  out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">arithmetic intensity (FLOP/byte)</text>)" "\n",
                     kLeft + s.width / 2, bottom + 2.2 * kLine);
  out += fmt::format(R"(<text transform='translate({},{}) rotate(-90)' text-anchor="middle">GFLOPS</text>)" "\n",
                     kLeft - 55, kTop + kPlot / 2);
  return out;
}

// The memory roof up to the highest compute roof, each compute roof from where it meets it.
std::string roofs_svg(const Scale& s, const DevicePeaks& p) {
  std::string out;
  const std::vector<ComputeRoof> roofs = compute_roofs(p);
  double top = 0;
  for (const ComputeRoof& r : roofs) top = std::max(top, r.flops);
  if (p.bandwidth.value) {
    const double b = *p.bandwidth.value;
    const double x0 = std::max(s.x_lo(), s.y_lo() / b), x1 = top > 0 ? top / b : s.x_hi();
    out += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#000" stroke-width="2"/>)"
                       R"(<text x="{:.1f}" y="{:.1f}">{} {:.1f} GB/s</text>)" "\n",
                       s.x(x0), s.y(b * x0), s.x(std::min(x1, s.x_hi())), s.y(b * std::min(x1, s.x_hi())),
                       s.x(x0) + 4, s.y(b * x0) - 6, escaped(p.device), b / 1e9);
  }
  for (const ComputeRoof& r : roofs) {
    const double from = p.bandwidth.value ? std::max(s.x_lo(), r.flops / *p.bandwidth.value) : s.x_lo();
    out += fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#000" stroke-dasharray="{}"/>)"
                       R"(<text x="{:.1f}" y="{:.1f}" dominant-baseline="middle">{} {} {:.1f} GFLOPS</text>)" "\n",
                       s.x(from), s.y(r.flops), s.x(s.x_hi()), s.y(r.flops), r.what == "float32" ? "none" : "6 3",
                       s.x(s.x_hi()) + 4, s.y(r.flops), escaped(p.device), escaped(r.what), r.flops / 1e9);
  }
  return out;
}

std::string point_svg(const Scale& s, const RooflinePoint& p) {
  const double x = s.x(p.intensity), y = s.y(p.flops_per_s);
  const std::string share = p.percent ? fmt::format(", {:.0f}% {}", *p.percent, bound_name(p.bound)) : "";
  // a label right of its point, or left of it in the plot's right third, where the roofs' labels are
  const bool left = x > kLeft + s.width * 2 / 3;
  return fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="4" fill="{}"><title>{}</title></circle>)"
                     R"(<text x="{:.1f}" y="{:.1f}" font-size="11" text-anchor="{}">{} {}{}</text>)" "\n",
                     x, y, colour(p.bound), escaped(p.kernel.name), left ? x - 6 : x + 6, y + 14, left ? "end" : "start",
                     p.kernel.k, escaped(p.kernel.name), share);
}

}  // namespace

std::string roofline_svg(const std::vector<RooflinePoint>& points, const std::vector<DevicePeaks>& peaks) {
  const Scale s{roofline_axes(points, peaks)};
  std::vector<const RooflinePoint*> off;
  for (const RooflinePoint& p : points)
    if (!on_plot(p)) off.push_back(&p);
  const double height = kTop + kPlot + 3.5 * kLine + (off.empty() ? 0 : (off.size() + 1) * kLine);
  std::string out = fmt::format(
      R"(<?xml version="1.0" encoding="UTF-8"?>)" "\n"
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" font-family="sans-serif" font-size="12">)" "\n"
      R"(<rect width="100%" height="100%" fill="#fff"/>)" "\n"
      R"(<text x="{2}" y="16" font-size="14">roofline of the selected schedule</text>)" "\n"
      R"(<text x="{2}" y="32">roofs: memory (slope), float32 (solid), others (dashed); by bound: <tspan fill="{3}">memory</tspan>, <tspan fill="{4}">compute</tspan>, )"
      R"(<tspan fill="{5}">launch</tspan></text>)" "\n",
      kWidth, height, kLeft, colour(Bound::Memory), colour(Bound::Compute), colour(Bound::Launch));
  out += axes_svg(s);
  for (const DevicePeaks& p : peaks) out += roofs_svg(s, p);
  for (const RooflinePoint& p : points)
    if (on_plot(p)) out += point_svg(s, p);
  double y = kTop + kPlot + 3.5 * kLine;
  if (!off.empty()) out += fmt::format(R"(<text x="{}" y="{}">not on the plot (no FLOPs or no bytes):</text>)" "\n", kLeft, y);
  for (const RooflinePoint* p : off) {
    y += kLine;
    const std::string share = p->percent ? fmt::format(": {:.0f}% of its {} bound", *p->percent, bound_name(p->bound)) : "";
    out += fmt::format(R"(<text x="{}" y="{}">{} {}, {:.2f} GB/s{}</text>)" "\n", kLeft + 12, y, p->kernel.k,
                       escaped(p->kernel.name), p->bytes_per_s / 1e9, share);
  }
  return out + "</svg>\n";
}

}  // namespace tr
