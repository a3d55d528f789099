#include "viz/roofline.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace tr {
namespace {

std::string gflops(const std::optional<double>& flops_per_s) {
  return flops_per_s ? fmt::format("{:.2f}", *flops_per_s / 1e9) : "-";
}

// Where a figure is missing, the note says which and why, in the peak's own words.
std::string missing(std::string_view what, const Peak* peak) {
  return fmt::format("no {} roof: {}", what, peak ? peak->source : "none is measured");
}

}  // namespace

std::string_view bound_name(Bound b) {
  switch (b) {
    case Bound::Memory: return "memory";
    case Bound::Compute: return "compute";
    case Bound::Launch: return "launch";
    case Bound::Unknown: return "unknown";
  }
  return "";
}

KernelFigures kernel_figures(int k, const KernelRecord& r) {
  double seconds = r.seconds;
  for (const double again : r.repeats) seconds = std::min(seconds, again);
  // the float dtype of most arithmetic, lanes counted
  std::map<DType, int64_t> lanes;
  for (const UOp& u : r.program->uops)
    if ((u.kind == UOpKind::Alu || u.kind == UOpKind::Wmma) && is_float(u.dtype)) lanes[u.dtype] += u.vec;
  DType dtype = DType::Float32;
  int64_t most = 0;
  for (const auto& [d, n] : lanes)
    if (n > most) {
      dtype = d;
      most = n;
    }
  return {.k = k,
          .name = r.name,
          .device = r.device,
          .flops = static_cast<double>(r.program->flops),
          .bytes = static_cast<double>(r.program->bytes),
          .seconds = seconds,
          .dtype = dtype,
          .tensor_cores = r.kernel && r.kernel->tc.has_value()};
}

RooflinePoint place(const KernelFigures& kernel, const DevicePeaks& peaks) {
  RooflinePoint p{.kernel = kernel};
  const double t = std::max(kernel.seconds, 1e-12);
  p.intensity = kernel.bytes > 0 ? kernel.flops / kernel.bytes : 0;
  p.flops_per_s = kernel.flops / t;
  p.bytes_per_s = kernel.bytes / t;
  const Peak* compute = kernel.tensor_cores ? &peaks.tensor_cores : peaks.compute_of(kernel.dtype);
  std::vector<std::string> notes;
  if (compute && compute->value) p.compute_roof = compute->value;
  else notes.push_back(missing(kernel.tensor_cores ? "tensor-core" : fmt::format("{} compute", name(kernel.dtype)), compute));
  const std::optional<double> bandwidth = peaks.bandwidth.value;
  if (!bandwidth) notes.push_back(missing("memory", &peaks.bandwidth));
  if (!peaks.launch.value) notes.push_back(missing("launch", &peaks.launch));
  if (p.compute_roof && bandwidth) p.roof = std::min(*p.compute_roof, *bandwidth * p.intensity);
  else if (bandwidth) p.roof = *bandwidth * p.intensity;
  else p.roof = p.compute_roof;

  // the floors, in seconds, of the roofs the device has
  const std::optional<double> memory = bandwidth ? std::optional(kernel.bytes / *bandwidth) : std::nullopt;
  const std::optional<double> arithmetic = p.compute_roof ? std::optional(kernel.flops / *p.compute_roof) : std::nullopt;
  const std::optional<double> launch = peaks.launch.value;
  const double work = std::max(memory.value_or(0), arithmetic.value_or(0));
  if (launch && (*launch >= work || kernel.seconds <= kLaunchMultiple * *launch)) p.bound = Bound::Launch;
  else if (memory && memory >= arithmetic.value_or(0)) p.bound = Bound::Memory;
  else if (arithmetic) p.bound = Bound::Compute;
  if (p.bound != Bound::Unknown) p.percent = std::max(work, launch.value_or(0)) / t * 100;
  if (p.bound == Bound::Memory && p.percent > 100) notes.push_back("above the memory roof: its bytes were in a cache, or the peaks were measured on a busier machine");
  std::string note;
  for (const std::string& n : notes) note += (note.empty() ? "" : "; ") + n;
  p.note = note;
  return p;
}

bool on_plot(const RooflinePoint& p) { return p.intensity > 0 && p.flops_per_s > 0; }

std::vector<ComputeRoof> compute_roofs(const DevicePeaks& p) {
  std::vector<ComputeRoof> out;
  for (const auto& [dtype, peak] : p.compute)
    if (peak.value) out.push_back({std::string(name(dtype)), *peak.value});
  if (p.tensor_cores.value) out.push_back({"tensor cores", *p.tensor_cores.value});
  return out;
}

RooflineAxes roofline_axes(const std::vector<RooflinePoint>& points, const std::vector<DevicePeaks>& peaks) {
  std::vector<double> xs, ys;
  for (const RooflinePoint& p : points)
    if (on_plot(p)) {
      xs.push_back(p.intensity);
      ys.push_back(p.flops_per_s);
    }
  for (const DevicePeaks& d : peaks)
    for (const ComputeRoof& r : compute_roofs(d)) {
      ys.push_back(r.flops);
      if (d.bandwidth.value) xs.push_back(r.flops / *d.bandwidth.value);
    }
  auto decades = [](const std::vector<double>& v, Decades fallback) {
    if (v.empty()) return fallback;
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return Decades{static_cast<int>(std::floor(std::log10(*lo))), static_cast<int>(std::floor(std::log10(*hi))) + 1};
  };
  RooflineAxes a{decades(xs, {-2, 1}), decades(ys, {6, 9})};
  while (a.intensity.hi - a.intensity.lo < 3) {
    a.intensity.lo--;
    if (a.intensity.hi - a.intensity.lo < 3) a.intensity.hi++;
  }
  // the memory roof enters at the left edge: the lowest point or that, whichever is lower
  for (const DevicePeaks& d : peaks)
    if (d.bandwidth.value)
      a.flops.lo = std::min(a.flops.lo, static_cast<int>(std::floor(std::log10(*d.bandwidth.value) + a.intensity.lo)));
  return a;
}

std::string peaks_table(const DevicePeaks& p, std::string_view kept_where) {
  const std::string when = p.kept ? fmt::format("measured {}", p.measured) : fmt::format("measured now ({})", p.measured);
  const std::string where = kept_where.empty() ? "not kept" : fmt::format("kept in {}", kept_where);
  std::string out = fmt::format("{} peaks, {}, {} (:roofline measure measures again)\n", p.device, when, where);
  auto row = [&](std::string_view what, const Peak& peak, const std::string& value) {
    out += fmt::format("  {:<18} {:>16}  {}\n", what, peak.value ? value : "-", peak.source);
  };
  row("memory bandwidth", p.bandwidth, fmt::format("{:.2f} GB/s", p.bandwidth.value.value_or(0) / 1e9));
  for (const auto& [dtype, peak] : p.compute)
    row(fmt::format("{} compute", name(dtype)), peak, fmt::format("{} GFLOPS", gflops(peak.value)));
  row("tensor cores", p.tensor_cores, fmt::format("{} GFLOPS", gflops(p.tensor_cores.value)));
  row("launch", p.launch, fmt::format("{:.2f} us", p.launch.value.value_or(0) * 1e6));
  for (const auto& [dtype, peak] : p.compute)
    if (peak.value && p.bandwidth.value)
      out += fmt::format("  ridge point of {}: {:.3g} FLOP/B (the intensity where the roofs meet)\n", name(dtype),
                         *peak.value / *p.bandwidth.value);
  return out;
}

std::string roofline_table(const std::vector<RooflinePoint>& points) {
  if (points.empty()) return "no kernel of the selected schedule has run: realize something first\n";
  size_t width = 12;
  for (const RooflinePoint& p : points) width = std::max(width, p.kernel.name.size());
  std::string out = fmt::format("{:>2} {:<{}} {:<7} {:<8} {:>9} {:>10} {:>9} {:>11} {:>10}  {}\n", "K", "kernel", width,
                                "device", "dtype", "FLOP/B", "GFLOPS", "GB/s", "roof GFLOPS", "% of bound", "bound");
  for (const RooflinePoint& p : points) {
    const KernelFigures& k = p.kernel;
    const std::string dtype = k.tensor_cores ? "TC" : std::string(name(k.dtype));
    out += fmt::format("{:>2} {:<{}} {:<7} {:<8} {:>9.3g} {:>10.2f} {:>9.2f} {:>11} {:>10}  {}{}\n", k.k, k.name, width,
                       k.device, dtype, p.intensity, p.flops_per_s / 1e9, p.bytes_per_s / 1e9, gflops(p.roof),
                       p.percent ? fmt::format("{:.1f}%", *p.percent) : "-", bound_name(p.bound),
                       p.note.empty() ? "" : " (" + p.note + ")");
  }
  return out;
}

std::string roofline_text(const Roofline& r) {
  std::string out;
  for (const DevicePeaks& p : r.peaks) out += peaks_table(p, r.kept_where) + "\n";
  return out + roofline_table(r.points);
}

}  // namespace tr
