#include "viz/debug_output.h"

#include <fmt/format.h>

#include "viz/stages.h"

namespace tr {

std::string time_str(double seconds) {
  return seconds > 0.01 ? fmt::format("{:9.2f}ms", seconds * 1e3) : fmt::format("{:9.2f}us", seconds * 1e6);
}

std::string DebugOutput::on_schedule(const Realization& r, int level) const {
  if (level < 1 || r.schedule.empty()) return "";
  int kernels = 0;
  for (const ScheduleItem& i : r.schedule) kernels += i.kind == ScheduleItem::Kind::Kernel;
  return fmt::format("scheduled {} kernels in {:.2f} ms\n", kernels, r.schedule_ms);
}

std::string DebugOutput::on_run(const RunRecord& r, int level, const std::vector<std::string>& render) {
  if (level < 1) return "";
  std::string out;
  const double s = r.is_copy ? r.copy.seconds : r.kernel.seconds;
  seconds_ += s;
  if (r.is_copy) {
    mem_ += r.copy.bytes;
    if (level >= 2)
      out += fmt::format("*** {:<7} {:4d} {:<40} mem {:5.2f} GB tm {}/{:9.2f}ms ({:6.1f} GB/s){}\n", r.copy.to, kernels_,
                         fmt::format("copy {:8d}, {} <- {}", r.copy.bytes, r.copy.to, r.copy.from), mem_ / 1e9,
                         time_str(s), seconds_ * 1e3, r.copy.bytes / std::max(s, 1e-20) / 1e9, r.replayed ? " (jit)" : "");
    return out;
  }
  const KernelRecord& k = r.kernel;
  kernels_++;
  flops_ += k.program.flops;
  bytes_ += k.program.bytes;
  mem_ += k.buffers.empty() ? 0 : k.buffers[0].second * itemsize(k.buffers[0].first);
  if (level == 1) return fmt::format("{}\n", k.name);
  // the kernel's stages, in the order they were made, come before its *** line, as in tinygrad
  if (level >= 3) out += ast_text(k.kernel) + opts_text(k.kernel);
  if (level >= 6) out += passes_text(lowering_passes(k));
  if (level >= 5) out += uops_text(k.program);
  if (level >= 4) out += source_text(k, shown_backends(k, render));
  const double gflops = k.program.flops / std::max(s, 1e-20) / 1e9, gbs = k.program.bytes / std::max(s, 1e-20) / 1e9;
  out += fmt::format("*** {:<7} {:4d} {:<12} mem {:5.2f} GB tm {}/{:9.2f}ms ({:9.2f} GFLOPS {:6.1f}|{:<7.1f} GB/s){}\n",
                     k.device, kernels_, k.name, mem_ / 1e9, time_str(s), seconds_ * 1e3, gflops, gbs, gbs,
                     r.replayed ? " (jit)" : k.cached ? " (cached)" : "");
  return out;
}

std::string DebugOutput::summary(int level) const {
  if (level < 2 || kernels_ == 0) return "";
  const double s = std::max(seconds_, 1e-20);
  return fmt::format("avg: {:9.2f} GFLOPS {:9.2f} GB/s   total: {:5d} kernels {:8.2f} GOPS {:8.2f} GB {:8.2f} ms\n",
                     flops_ / s / 1e9, bytes_ / s / 1e9, kernels_, flops_ / 1e9, bytes_ / 1e9, seconds_ * 1e3);
}

}  // namespace tr
