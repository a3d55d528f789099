#pragma once
// Each kernel on its device's roofline: its arithmetic intensity (FLOPs per byte moved), the rate it
// reached, the roof at its intensity, and what bounds it. The time a kernel cannot beat is the largest
// of three floors: its bytes at the memory bandwidth, its FLOPs at the compute roof of its dtype (the
// tensor cores' for a TC kernel), and a launch; its percentage is that floor over its time, which for
// a memory- or compute-bound kernel is its rate over the roof at its intensity.
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/realize/run_record.h"
#include "viz/peaks.h"

namespace tr {

// Launch: the kernel's time is within kLaunchMultiple of a launch's, or moving its bytes and doing its
// FLOPs would take less than a launch. Unknown: its device has none of the roofs.
enum class Bound : uint8_t { Memory, Compute, Launch, Unknown };
std::string_view bound_name(Bound b);  // "memory", "compute", "launch", "unknown"
constexpr double kLaunchMultiple = 2;

// The kernel's figures, as a run record or a test gives them.
struct KernelFigures {
  int k = 0;                  // its index in the schedule, as :kernels numbers it
  std::string name{}, device{};
  double flops = 0, bytes = 0, seconds = 0;
  DType dtype = DType::Float32;  // whose compute roof bounds it
  bool tensor_cores = false;     // a TC kernel: the matrix units' roof
};

struct RooflinePoint {
  KernelFigures kernel{};
  double intensity = 0;  // FLOPs per byte (0 for a kernel that moves no bytes)
  double flops_per_s = 0, bytes_per_s = 0;
  std::optional<double> compute_roof{};  // FLOP/s of its dtype's (or the tensor cores') roof
  std::optional<double> roof{};          // FLOP/s at its intensity: min(compute, bandwidth x intensity)
  std::optional<double> percent{};       // of its bound: the floor over its time, x 100
  Bound bound = Bound::Unknown;
  std::string note{};  // what is missing from its figures ("no float64 compute roof is measured"), or ""
};

// The kernel's figures from its run: its fastest time (its first run, or a repeat where it was run
// again), its dominant float dtype (float32 where it does no float arithmetic), whether it uses tensor cores.
KernelFigures kernel_figures(int k, const KernelRecord& r);
RooflinePoint place(const KernelFigures& kernel, const DevicePeaks& peaks);

// Whether the point can stand on log axes: it does FLOPs and moves bytes.
bool on_plot(const RooflinePoint& p);
// The decades a picture spans (powers of ten, lo < hi): every point on it, every roof where it bends
// (a ridge), and at least three decades of intensity.
struct Decades {
  int lo = 0, hi = 1;
  // How far along the axis v lies on a log scale: 0 at 10^lo, 1 at 10^hi.
  double fraction(double v) const { return (std::log10(v) - lo) / (hi - lo); }
};
struct RooflineAxes {
  Decades intensity, flops;  // FLOP/B along x, FLOP/s along y
};
RooflineAxes roofline_axes(const std::vector<RooflinePoint>& points, const std::vector<DevicePeaks>& peaks);
// The roofs of a device to draw: the memory roof's slope, and each compute roof's height with its name.
struct ComputeRoof {
  std::string what;  // "float32", "float16", "tensor cores"
  double flops = 0;  // FLOP/s
};
std::vector<ComputeRoof> compute_roofs(const DevicePeaks& p);

// The peaks of each device as lines: each roof, its value and where it comes from.
std::string peaks_table(const DevicePeaks& p, std::string_view kept_where);
// One row per kernel: K, name, device, dtype, FLOP/B, GFLOPS, GB/s, the roof, % of the bound, the bound.
std::string roofline_table(const std::vector<RooflinePoint>& points);

// What `:roofline` shows: the peaks of each device its kernels ran on, and each kernel on its roofline.
struct Roofline {
  std::vector<DevicePeaks> peaks{};
  std::vector<RooflinePoint> points{};
  std::string kept_where{};  // the store's folder; "" where nothing is kept
};
// Each device's peaks_table, then the roofline_table.
std::string roofline_text(const Roofline& r);

}  // namespace tr
