// :roofline — the selected schedule's kernels on their devices' rooflines, the peaks measured once per
// machine and kept in the on-disk cache.
#include <algorithm>

#include "core/base/context.h"
#include "core/runtime/device.h"
#include "repl/app/files.h"
#include "repl/app/meta_commands.h"
#include "repl/app/peak_store.h"
#include "viz/roofline_svg.h"

namespace tr::repl::meta {

Status roofline(Host& h, const MetaCall& c) {
  c.expect(0, 1);
  const bool again = c.size() == 1 && c.arg(0) == "measure";
  const std::string svg = c.size() == 1 && !again ? c.arg(0) : "";
  if (!svg.empty() && !svg.ends_with(".svg")) c.fail(0, "command", "usage: :roofline [FILE.svg | measure]");
  // the statement's schedules the kernel views look at (:history N selects an earlier one)
  const ScheduleHistory& schedules = h.schedules();
  std::vector<KernelFigures> kernels;
  std::vector<std::string> devices;
  for (int k = 0; k < static_cast<int>(schedules.size()); k++) {
    const RunRecord* run = schedules.run(k);
    if (!run || run->is_copy) continue;
    kernels.push_back(kernel_figures(k, run->kernel));
    if (std::find(devices.begin(), devices.end(), run->kernel.device) == devices.end())
      devices.push_back(run->kernel.device);
  }
  // without a kernel, the peaks of the device the session runs on
  if (devices.empty()) devices.push_back(settings().device);
  const PeakStore store = disk_peak_store();
  Roofline r{.kept_where = store.where};
  for (const std::string& d : devices) r.peaks.push_back(device_peaks(tr::device(d), store, again));
  for (const KernelFigures& k : kernels) {
    const auto d = std::find(devices.begin(), devices.end(), k.device) - devices.begin();
    r.points.push_back(place(k, r.peaks[static_cast<size_t>(d)]));
  }
  if (!svg.empty()) c.checked(0, [&] { write_text_file(svg, roofline_svg(r.points, r.peaks)); });
  h.show_roofline(r, svg);
  return Status::Ok;
}

}  // namespace tr::repl::meta
