#pragma once
// A device's peaks, the roofs of the roofline: memory bandwidth, compute per dtype, tensor cores, and
// what a launch costs. Measured once per machine by the short kernels of viz/peak_benchmarks.h, run
// through the device's own compile and run, and kept in a store (the program's is the on-disk cache)
// under a key of the device's hardware and the benchmarks, so that another machine, driver or benchmark
// measures again. Tensor cores come from the data sheet where the part is known (viz/data_sheets.h).
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/dtype.h"
#include "core/runtime/device.h"

namespace tr {

// One roof: its value, and where it comes from (the kernel that measured it and how, or the data
// sheet); without a value, why there is none.
struct Peak {
  std::optional<double> value{};
  std::string source{};
};

struct DevicePeaks {
  std::string device{};  // "CPU"
  Peak bandwidth{};      // bytes per second
  std::vector<std::pair<DType, Peak>> compute{};  // FLOP per second: float32, then float16
  Peak tensor_cores{};   // FLOP per second of the matrix units, from the data sheet
  Peak launch{};         // seconds: a one-element kernel's time
  std::string measured{};  // when, local time: "2026-03-01 14:05"
  bool kept = false;     // read from the store rather than measured now

  // The compute roof of dtype; null where none was measured for it.
  const Peak* compute_of(DType dtype) const;
};

// The dtypes whose compute roof is measured on a target: float32, and float16 where it has half arithmetic.
std::vector<DType> measured_dtypes(const Target& t);

// Runs the benchmarks on dev now (about a second on a CPU: a few compiles, then runs). A benchmark that
// fails leaves its peak without a value, saying why; Ctrl-C stops them all.
DevicePeaks measure_peaks(Device& dev);

// Where peaks are kept between runs: the program installs the on-disk cache's texts (`where` names
// its folder); without find and keep, nothing is kept.
struct PeakStore {
  std::function<std::optional<std::string>(const std::string& key)> find{};
  std::function<void(const std::string& key, const std::string& text)> keep{};
  std::string where{};
};

// What kept peaks are found by: the device's hardware and each benchmark's kernel and opts.
std::string peaks_key(const Device& dev);
// The peaks kept for dev; nullopt when none are, or the kept text does not read as peaks.
std::optional<DevicePeaks> kept_peaks(const Device& dev, const PeakStore& store);
// The kept peaks, else (or, with again, always) measured now and kept.
DevicePeaks device_peaks(Device& dev, const PeakStore& store, bool again = false);

// The measured figures as the store keeps them, and back (the tensor cores are the data sheet's,
// looked up again when read).
std::string peaks_record(const DevicePeaks& p);
std::optional<DevicePeaks> read_peaks_record(const std::string& text);

}  // namespace tr
