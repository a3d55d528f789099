#include "repl/app/kernel_views.h"

#include <fmt/format.h>

#include "core/context.h"
#include "core/device.h"
#include "core/render/render.h"
#include "viz/debug_output.h"
#include "viz/timings.h"

namespace tr::repl {

std::string kernel_title(int k, const KernelRecord& r) {
  std::vector<std::string> opts;
  for (const Opt& o : r.kernel.opts) opts.push_back(o.str());
  return fmt::format("kernel {} {} on {} (opts: {})\n", k, r.name, r.device,
                     opts.empty() ? "none" : fmt::format("{}", fmt::join(opts, ", ")));
}

std::string dims_text(const KernelRecord& r) {
  std::string out = "dims (AXIS for :opt):\n";
  for (size_t i = 0; i < r.kernel.dims.size(); i++) {
    const Dim& d = r.kernel.dims[i];
    out += fmt::format("  {:>2}  {:<7} size {:<6} (axis {} of the full shape {})\n", i, dim_role_name(d.role), d.size,
                       d.axis, shape_str(r.kernel.full_shape));
  }
  return out;
}

std::vector<std::string> shown_backends(const KernelRecord& r) {
  if (!settings().render.empty()) return settings().render;
  return {device(r.device).backend()};
}

std::string sources_text(const KernelRecord& r, const std::vector<std::string>& backends) {
  std::string out;
  for (const std::string& b : backends) {
    std::string text = render(b, r.program);
    if (!text.empty() && text.back() != '\n') text += '\n';
    out += fmt::format("// {}\n{}", b, text);
  }
  return out;
}

std::string timing_text(const KernelRecord& r) {
  RunRecord run;
  run.kernel = r;
  const RunRates x = rates(run);
  return fmt::format("tm {}  {:.2f} GFLOPS  {:.2f} GB/s  ({} FLOPs, {} bytes)\n", time_str(x.seconds), x.gflops,
                     x.gbs, r.program.flops, r.program.bytes);
}

}  // namespace tr::repl
