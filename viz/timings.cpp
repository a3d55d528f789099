#include "viz/timings.h"

#include <algorithm>

#include <fmt/format.h>

#include "viz/debug_output.h"

namespace tr {

RunRates rates(const RunRecord& r) {
  const double s = run_seconds(r);
  const double t = std::max(s, 1e-12);
  if (r.is_copy) return {s, 0, r.copy.bytes / t / 1e9};
  return {s, r.kernel.program->flops / t / 1e9, r.kernel.program->bytes / t / 1e9};
}

std::optional<Spread> spread(const std::vector<double>& repeats) {
  if (repeats.empty()) return std::nullopt;
  std::vector<double> sorted = repeats;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  return Spread{sorted.front(), median, static_cast<int>(n)};
}

std::string totals_line(const RunTotals& t) {
  return fmt::format("total: {} kernel{}, {} cop{}, {:.3f} GFLOP, {:.3f} GB, {:.3f} ms\n", t.kernels,
                     t.kernels == 1 ? "" : "s", t.copies, t.copies == 1 ? "y" : "ies", static_cast<double>(t.flops) / 1e9,
                     static_cast<double>(t.bytes) / 1e9, t.seconds * 1e3);
}

namespace {

std::string run_name(const RunRecord& r) {
  const std::string run = r.is_copy ? fmt::format("copy {}->{}", r.copy.from, r.copy.to) : r.kernel.name;
  return r.replayed ? run + " (jit)" : run;
}

// s in a column of w: padded, or cut with an ellipsis. Kernel and device names are ASCII, a byte a column.
std::string cell(const std::string& s, size_t w) {
  return s.size() <= w ? s + std::string(w - s.size(), ' ') : s.substr(0, w - 1) + "…";
}

}  // namespace

std::string timings_table(const std::vector<RunRecord>& runs, int width, int fit) {
  if (runs.empty()) return "no kernel has run yet\n";
  double longest = 0;
  size_t name_width = 24, device_width = 7;
  for (const RunRecord& r : runs) {
    longest = std::max(longest, run_seconds(r));
    name_width = std::max(name_width, run_name(r).size());
    device_width = std::max(device_width, (r.is_copy ? r.copy.to : r.kernel.device).size());
  }
  // the columns after the name, each with the space before it: the device, then time, GFLOPS and GB/s
  constexpr int kRates = 31;
  const int device = 1 + static_cast<int>(device_width);
  bool with_device = true;
  if (fit > 0) {
    constexpr int kMinName = 14;
    with_device = fit - kRates - device >= std::min<int>(static_cast<int>(name_width), kMinName);
    name_width = static_cast<size_t>(std::clamp(fit - kRates - (with_device ? device : 0), 6, static_cast<int>(name_width)));
  }
  const auto device_cell = [&](const std::string& d) { return with_device ? " " + cell(d, device_width) : std::string(); };
  // the repeats' columns only when some kernel was run again
  const bool repeated = std::any_of(runs.begin(), runs.end(), [](const RunRecord& r) { return !r.kernel.repeats.empty(); });
  std::string out = fmt::format("{}{} {:>11} {:>9} {:>8}{}\n", cell("kernel", name_width), device_cell("device"), "time",
                                "GFLOPS", "GB/s", repeated ? fmt::format(" {:>11} {:>11} {:>5}", "min", "median", "runs") : "");
  for (const RunRecord& r : runs) {
    const RunRates x = rates(r);
    const std::string name = cell(run_name(r), name_width);
    const std::string device = device_cell(r.is_copy ? r.copy.to : r.kernel.device);
    const int bar = width > 0 && longest > 0 ? std::max(1, static_cast<int>(x.seconds / longest * width)) : 0;
    std::string bars;
    for (int i = 0; i < bar; i++) bars += "█";
    const std::optional<Spread> again = spread(r.kernel.repeats);
    const std::string repeats = !repeated ? ""
                                : again   ? fmt::format(" {} {} {:>5}", time_str(again->min), time_str(again->median), again->runs)
                                          : fmt::format(" {:>11} {:>11} {:>5}", "-", "-", "-");
    out += fmt::format("{}{} {} {:>9} {:>8.2f}{} {}\n", name, device, time_str(x.seconds),
                       r.is_copy ? "-" : fmt::format("{:.2f}", x.gflops), x.gbs, repeats, bars);
  }
  return out + totals_line(RunTotals::of(runs));
}

}  // namespace tr
