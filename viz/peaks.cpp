#include "viz/peaks.h"

#include <algorithm>
#include <ctime>
#include <functional>
#include <sstream>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/base/interrupt.h"
#include "core/base/progress.h"
#include "core/codegen/codegen.h"
#include "core/realize/footprint.h"
#include "core/runtime/compile_parallel.h"
#include "viz/data_sheets.h"
#include "viz/peak_benchmarks.h"

namespace tr {
namespace {

// Changes when what the benchmarks measure or how they are timed changes, so that kept peaks are measured again.
constexpr std::string_view kRecordHead = "tinyrepl roofline peaks 1";
// Runs after the warm-up: the fastest of 5 to 10 for a roof (past 5 while they add up to less than a
// tenth of a second: a busy machine slows some runs down, rarely all), the median of 21 for a launch,
// whose runs scatter around a few microseconds.
constexpr int kRoofRuns = 5, kRoofRunsMost = 10, kLaunchRuns = 21;
constexpr double kRoofSeconds = 0.1;

enum class Figure : uint8_t { Bandwidth, Compute, Launch };

struct Planned {
  Figure figure;
  DType dtype;  // Compute's
  std::optional<PeakBenchmark> bench;
  std::string failure;  // why it is not measured: an opt the target refuses, a lowering that fails
};

std::string absent_because(const Error& e) { return fmt::format("absent: its benchmark failed: {}", e.what()); }

Planned planned(Figure figure, DType dtype, const std::function<PeakBenchmark()>& make) {
  try {
    return {figure, dtype, make(), ""};
  } catch (const Error& e) {
    if (is_interrupt(e)) throw;
    return {figure, dtype, std::nullopt, absent_because(e)};
  }
}

std::vector<Planned> plan(const Target& t) {
  std::vector<Planned> out{planned(Figure::Bandwidth, DType::Float32, [&] { return bandwidth_benchmark(t); })};
  for (const DType d : measured_dtypes(t))
    out.push_back(planned(Figure::Compute, d, [&] { return compute_benchmark(t, d); }));
  out.push_back(planned(Figure::Launch, DType::Float32, [] { return launch_benchmark(); }));
  return out;
}

std::string now_text() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local);
  return text;
}

// The store keeps a line per figure: its fields apart by tabs, so none may hold one.
std::string one_line(std::string s) {
  std::replace_if(s.begin(), s.end(), [](char c) { return c == '\t' || c == '\n'; }, ' ');
  return s;
}

// The bandwidth benchmark's buffers are written by the kernel itself, x + 1 from the one into the other
// and back, so that every page is the process's own before a timed run (a page never written reads
// the system's one page of zeros, from the cache), without a host copy of zeros as large as both.
std::vector<BufferRef> buffers_for(Device& dev, const Planned& b) {
  if (b.figure != Figure::Bandwidth) return zeroed_buffers(dev, b.bench->buffers);
  std::vector<BufferRef> out;
  for (const auto& [dtype, size] : b.bench->buffers) out.push_back(dev.alloc(dtype, size));
  return out;
}

// The seconds of each run of p after its warm-up, sorted.
std::vector<double> runs_of(Device& dev, Program& p, const Planned& b, const LaunchDims& dims) {
  const std::vector<BufferRef> owned = buffers_for(dev, b);
  const std::vector<const Buffer*> there = pointers(owned);
  const std::vector<const Buffer*> back = b.figure == Figure::Bandwidth ? std::vector{there[1], there[0]} : there;
  p.run(there, dims, {});
  p.run(back, dims, {});
  const bool launch = b.figure == Figure::Launch;
  std::vector<double> out;
  double spent = 0;
  for (int i = 0; launch ? i < kLaunchRuns : i < kRoofRunsMost && (i < kRoofRuns || spent < kRoofSeconds); i++) {
    check_interrupt();
    out.push_back(p.run(i % 2 ? back : there, dims, {}));
    spent += out.back();
  }
  std::sort(out.begin(), out.end());
  return out;
}

Peak measured(const Planned& b, const UOpProgram& program, const std::vector<double>& seconds) {
  const std::string how = fmt::format("measured: {}, {}", program.name, b.bench->what);
  switch (b.figure) {
    case Figure::Bandwidth:
      return {static_cast<double>(program.bytes) / seconds.front(),
              fmt::format("{}; the fastest of {} runs after warming up", how, seconds.size())};
    case Figure::Compute:
      return {static_cast<double>(program.flops) / seconds.front(),
              fmt::format("{}; the fastest of {} runs after warming up", how, seconds.size())};
    case Figure::Launch:
      return {seconds[seconds.size() / 2], fmt::format("{}; the median of {} runs after warming up", how, seconds.size())};
  }
  return {};
}

Peak& slot(DevicePeaks& p, const Planned& b) {
  switch (b.figure) {
    case Figure::Bandwidth: return p.bandwidth;
    case Figure::Compute: return p.compute.emplace_back(b.dtype, Peak{}).second;
    case Figure::Launch: return p.launch;
  }
  return p.launch;
}

}  // namespace

const Peak* DevicePeaks::compute_of(DType dtype) const {
  for (const auto& [d, peak] : compute)
    if (d == dtype) return &peak;
  return nullptr;
}

std::vector<DType> measured_dtypes(const Target& t) {
  if (t.half_arithmetic) return {DType::Float32, DType::Float16};
  return {DType::Float32};
}

DevicePeaks measure_peaks(Device& dev) {
  const Target t = dev.target();
  std::vector<Planned> benches = plan(t);
  DevicePeaks out{.device = dev.name(), .tensor_cores = tensor_core_peak(t, dev.hardware()), .measured = now_text()};
  std::vector<LoweredKernel> lowered(benches.size());
  for (size_t i = 0; i < benches.size(); i++) {
    if (!benches[i].bench) continue;
    try {
      const Kernel& k = benches[i].bench->kernel;
      lowered[i] = lower_kernel(k, t, [&](const UOpProgram& p) { return dev.render(p); }, k.base_name());
      lowered[i].program.bytes = bytes_touched(k.ast, benches[i].bench->buffers);
    } catch (const Error& e) {
      if (is_interrupt(e)) throw;
      benches[i].failure = absent_because(e);
    }
  }
  // every benchmark compiled at once, as a schedule's kernels are
  std::vector<CompileJob> jobs;
  std::vector<size_t> job_of(benches.size(), 0);
  for (size_t i = 0; i < benches.size(); i++) {
    if (!benches[i].failure.empty() || !benches[i].bench) continue;
    job_of[i] = jobs.size();
    jobs.push_back({.device = &dev, .program = &lowered[i].program, .source = &lowered[i].source});
  }
  const ProgressScope progress;
  compile_each(jobs, Phase::Compile, "the roofline's benchmarks");
  for (size_t i = 0; i < benches.size(); i++) {
    const Planned& b = benches[i];
    Peak& peak = slot(out, b);
    if (!b.failure.empty()) {
      peak.source = b.failure;
      continue;
    }
    try {
      const CompileJob& job = jobs[job_of[i]];
      if (job.failure) std::rethrow_exception(job.failure);
      report_progress(Phase::Run, static_cast<int>(i), static_cast<int>(benches.size()), lowered[i].program.name);
      peak = measured(b, lowered[i].program, runs_of(dev, *job.result, b, lowered[i].program.dims));
    } catch (const Error& e) {
      if (is_interrupt(e)) throw;
      peak.source = absent_because(e);
    }
  }
  return out;
}

std::string peaks_key(const Device& dev) {
  std::string key = fmt::format("{}\n{}", kRecordHead, dev.hardware());
  for (const Planned& b : plan(dev.target())) {
    if (!b.bench) {
      key += "\n" + b.failure;
      continue;
    }
    std::vector<std::string> opts;
    for (const Opt& o : b.bench->kernel.opts) opts.push_back(o.str());
    key += fmt::format("\n{:016x} {} [{}] {}", b.bench->kernel.ast->hash, b.bench->kernel.base_name(),
                       fmt::join(opts, " "), b.bench->what);
  }
  return key;
}

std::string peaks_record(const DevicePeaks& p) {
  auto line = [](std::string_view what, const Peak& peak) {
    return fmt::format("{}\t{}\t{}\n", what, peak.value ? fmt::format("{}", *peak.value) : "-", one_line(peak.source));
  };
  std::string out = fmt::format("{}\ndevice\t{}\nmeasured\t{}\n", kRecordHead, p.device, p.measured);
  out += line("bandwidth", p.bandwidth);
  for (const auto& [dtype, peak] : p.compute) out += line(fmt::format("compute {}", name(dtype)), peak);
  return out + line("launch", p.launch);
}

std::optional<DevicePeaks> read_peaks_record(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kRecordHead) return std::nullopt;
  DevicePeaks p{.kept = true};
  bool bandwidth = false, launch = false;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::istringstream parts(line);
    for (std::string f; std::getline(parts, f, '\t');) fields.push_back(f);
    if (fields.size() == 2 && (fields[0] == "device" || fields[0] == "measured")) {
      (fields[0] == "device" ? p.device : p.measured) = fields[1];
      continue;
    }
    if (fields.size() != 3) return std::nullopt;
    Peak peak{.source = fields[2]};
    if (fields[1] != "-") {
      try {
        peak.value = std::stod(fields[1]);
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
    const std::optional<DType> dtype = fields[0].starts_with("compute ") ? parse_dtype(fields[0].substr(8)) : std::nullopt;
    if (fields[0] == "bandwidth") {
      p.bandwidth = peak;
      bandwidth = true;
    } else if (fields[0] == "launch") {
      p.launch = peak;
      launch = true;
    } else if (dtype) {
      p.compute.emplace_back(*dtype, peak);
    } else {
      return std::nullopt;
    }
  }
  if (!bandwidth || !launch || p.compute.empty()) return std::nullopt;
  return p;
}

std::optional<DevicePeaks> kept_peaks(const Device& dev, const PeakStore& store) {
  if (!store.find) return std::nullopt;
  const std::optional<std::string> text = store.find(peaks_key(dev));
  std::optional<DevicePeaks> p = text ? read_peaks_record(*text) : std::nullopt;
  if (!p) return std::nullopt;
  p->device = dev.name();
  p->tensor_cores = tensor_core_peak(dev.target(), dev.hardware());
  return p;
}

DevicePeaks device_peaks(Device& dev, const PeakStore& store, bool again) {
  if (!again)
    if (std::optional<DevicePeaks> p = kept_peaks(dev, store)) return *p;
  DevicePeaks p = measure_peaks(dev);
  if (store.keep) store.keep(peaks_key(dev), peaks_record(p));
  return p;
}

}  // namespace tr
