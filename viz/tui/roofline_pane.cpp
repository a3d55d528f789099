#include "viz/tui/roofline_pane.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/base/error.h"

#include "viz/roofline_plot.h"
#include "viz/tui/pane_content.h"
#include "viz/tui/text.h"

namespace tr::tui {

PaneText roofline_pane(const Roofline& r, int selected, int width, int height) {
  const RooflinePlot plot = roofline_plot(r.points, r.peaks, width, height, selected);
  std::string text;
  for (const std::string& l : plot.lines) text += l + "\n";
  // the figures below the plot, the selected kernel's row pointed at
  std::string table;
  for (const std::string& row : split_lines(roofline_table(r.points))) {
    const bool chosen = row.starts_with(fmt::format("{:>2} ", selected));
    table += (chosen ? "@" : " ") + row + "\n";
  }
  std::string peaks;
  for (const DevicePeaks& p : r.peaks) peaks += peaks_table(p, r.kept_where);
  const auto at = std::find_if(r.points.begin(), r.points.end(), [&](const RooflinePoint& p) { return p.kernel.k == selected; });
  const std::string title =
      at == r.points.end() ? "Roofline"
      : at->percent        ? fmt::format("Roofline · {} {:.0f}% {}", at->kernel.name, *at->percent, bound_name(at->bound))
                           : fmt::format("Roofline · {}", at->kernel.name);
  PaneText p = pane_text(title, text + "\n" + table + "\n" + peaks);
  // a kernel drawn over another takes its place: the selected one, last, over all
  std::vector<std::pair<int, int>> marked;
  for (auto m = plot.marks.rbegin(); m != plot.marks.rend(); ++m) {
    if (std::find(marked.begin(), marked.end(), std::pair(m->row, m->col)) != marked.end()) continue;
    marked.emplace_back(m->row, m->col);
    p.spans[static_cast<size_t>(m->row)].push_back(
        {static_cast<size_t>(m->col), static_cast<size_t>(m->col) + 1, m->k == selected ? Style::Keyword : Style::Number});
  }
  for (std::vector<Span>& line : p.spans)
    std::sort(line.begin(), line.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
  return p;
}

PaneText roofline_pane(const std::vector<TuiItem>& items, int selected, const TuiHost& host, int width, int height) {
  Roofline r{.kept_where = host.peaks_kept_in};
  std::vector<KernelFigures> kernels;
  for (size_t k = 0; k < items.size(); k++)
    if (items[k].ran && !items[k].record.is_copy) kernels.push_back(kernel_figures(static_cast<int>(k), items[k].record.kernel));
  // the pane is narrow: its notes are folded to it
  const auto note = [&](const std::string& why) {
    std::string folded;
    for (const std::string& l : wrap(why, std::max(width, 20))) folded += l + "\n";
    return placeholder("Roofline", folded);
  };
  if (kernels.empty()) return note("no kernel has run yet: kernels go on the roofline once they run");
  for (const KernelFigures& k : kernels) {
    auto p = std::find_if(r.peaks.begin(), r.peaks.end(), [&](const DevicePeaks& d) { return d.device == k.device; });
    if (p == r.peaks.end()) {
      std::optional<DevicePeaks> kept;
      try {
        kept = host.peaks ? host.peaks(k.device) : std::nullopt;
      } catch (const Error& e) {
        return note(fmt::format("the peaks of {}: {}", k.device, e.what()));
      }
      if (!kept)
        return note(fmt::format("the peaks of {} are not measured yet: :roofline measures them (about a second, "
                                "once per machine) and keeps them",
                                k.device));
      kept->device = k.device;
      p = r.peaks.insert(r.peaks.end(), std::move(*kept));
    }
    r.points.push_back(place(k, *p));
  }
  return roofline_pane(r, selected, width, height);
}

}  // namespace tr::tui
