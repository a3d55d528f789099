#include "viz/debug_output.h"

#include <fmt/format.h>
#include <unistd.h>

#include "viz/stages.h"

namespace tr {
namespace {

std::string colored(bool on, const std::string& text, const char* code) {
  return on ? fmt::format("\x1b[{}m{}\x1b[0m", code, text) : text;
}
constexpr const char* kGreen = "32";
constexpr const char* kYellow = "33";

// The name column, as wide as tinygrad's, so that the columns after it line up.
constexpr size_t kNameWidth = 41;

// tinygrad's axis colours (its axis_colors): global blue, thread bright blue, local cyan, upcast yellow,
// unroll magenta, reduce red, group reduce bright red; a reduce's blocks (BLOCK, which tinygrad lacks) green.
const char* role_color(DimRole r) {
  switch (r) {
    case DimRole::Thread: return "94";
    case DimRole::Global: return "34";
    case DimRole::Local: return "36";
    case DimRole::Reduce: return "31";
    case DimRole::Group: return "91";
    case DimRole::Upcast: return "33";
    case DimRole::Unroll: return "35";
    case DimRole::Block: return "32";
  }
  return "0";
}

// "r_2_4n1" with each size in its dim's colour and the underscores dark grey, as tinygrad prints it;
// the suffix that makes a name unique stays plain.
std::string colored_name(const Kernel& k, const std::string& name) {
  const std::string base = k.base_name();
  if (k.dims.empty() || name.compare(0, base.size(), base) != 0) return name;
  std::string out = name.substr(0, name.find('_'));
  for (const Dim& d : k.dims) out += colored(true, "_", "90") + colored(true, std::to_string(d.size), role_color(d.role));
  return out + name.substr(base.size());
}

}  // namespace

std::string time_str(double seconds) {
  return seconds > 0.01 ? fmt::format("{:9.2f}ms", seconds * 1e3) : fmt::format("{:9.2f}us", seconds * 1e6);
}

std::string DebugOutput::on_schedule(const Realization& r, int level) const {
  if (level < 1 || r.schedule.empty()) return "";
  int kernels = 0;
  for (const ScheduleItem& i : r.schedule) kernels += i.kind == ScheduleItem::Kind::Kernel;
  return fmt::format("scheduled {} kernels in {:.2f} ms\n", kernels, r.schedule_ms);
}

std::string DebugOutput::line(const std::string& device, const std::string& name, const std::string& shown,
                              bool first_run, size_t args, double seconds, int64_t flops, int64_t bytes) const {
  const double s = std::max(seconds, 1e-20);
  const std::string padding(name.size() < kNameWidth ? kNameWidth - name.size() : 0, ' ');
  // a run of more than 10 ms has its time in yellow, as tinygrad marks it
  const std::string tm = seconds > 0.01 ? colored(color_, time_str(seconds), kYellow) : time_str(seconds);
  return fmt::format("{} {}{} arg {:2d} mem {:5.2f} GB tm {}/{:9.2f}ms ({:9.2f} GFLOPS {:6.1f}|{:<7.1f} GB/s)",
                     colored(color_ && first_run, fmt::format("*** {:<7} {:4d}", device.substr(0, 7), count_), kGreen),
                     shown, padding, args, mem_ / 1e9, tm, seconds_ * 1e3, flops / s / 1e9, bytes / s / 1e9,
                     bytes / s / 1e9);
}

std::string DebugOutput::on_run(const RunRecord& r, int level, const std::vector<std::string>& render) {
  if (level < 1) return "";
  std::string out;
  const std::string& dev = r.is_copy ? r.copy.to : r.kernel.device;
  if (dev != "HOST" && opened_.insert(dev).second) out += fmt::format("opened device {} from pid:{}\n", dev, getpid());
  const double s = r.is_copy ? r.copy.seconds : r.kernel.seconds;
  seconds_ += s;
  count_++;
  if (r.is_copy) {
    bytes_ += r.copy.bytes;
    if (r.copy.to != "HOST") mem_ += r.copy.bytes;
    if (level < 2) return out;
    const std::string name = fmt::format("copy {:8d}, {:>7} <- {:<7}", r.copy.bytes, r.copy.to.substr(0, 7),
                                         r.copy.from.substr(0, 7));
    return out + line(r.copy.to, name, colored(color_, name, kYellow), false, 2, s, 0, r.copy.bytes) + (r.replayed ? " (jit)\n" : "\n");
  }
  const KernelRecord& k = r.kernel;
  flops_ += k.program->flops;
  bytes_ += k.program->bytes;
  mem_ += k.buffers->empty() ? 0 : k.buffers->front().second * itemsize(k.buffers->front().first);
  if (level == 1) return out + fmt::format("{}\n", k.name);
  // the kernel's stages, in the order they were made, come before its *** line, as in tinygrad
  if (level >= 3) out += ast_text(*k.kernel) + opts_text(*k.kernel);
  if (level >= 6) out += passes_text(lowering_passes(k));
  if (level >= 5) out += uops_text(*k.program);
  if (level >= 4) out += source_text(k, shown_backends(k, render));
  out += line(k.device, k.name, color_ ? colored_name(*k.kernel, k.name) : k.name, !k.cached, k.buffers->size(), s, k.program->flops, k.program->bytes);
  return out + (r.replayed ? " (jit)\n" : k.cached ? " (cached)\n" : "\n");
}

std::string DebugOutput::summary(int level) const {
  if (level < 2 || count_ == 0) return "";
  const double s = std::max(seconds_, 1e-20);
  return fmt::format("avg: {:9.2f} GFLOPS {:9.2f} GB/s   total: {:5d} kernels {:8.2f} GOPS {:8.2f} GB {:8.2f} ms\n",
                     flops_ / s / 1e9, bytes_ / s / 1e9, count_, flops_ / 1e9, bytes_ / 1e9, seconds_ * 1e3);
}

}  // namespace tr
