#include "viz/tui/pane_content.h"

#include <algorithm>
#include <array>
#include <numeric>

#include <fmt/format.h>

#include "core/base/context.h"
#include "core/render/render.h"
#include "viz/asm_view.h"
#include "viz/debug_output.h"
#include "viz/stages.h"
#include "viz/timings.h"
#include "viz/tui/text.h"

namespace tr::tui {

std::vector<int> kernel_runs(const std::vector<RunRecord>& runs) {
  std::vector<int> out;
  for (size_t i = 0; i < runs.size(); i++)
    if (!runs[i].is_copy) out.push_back(static_cast<int>(i));
  return out;
}

std::vector<TuiItem> items_of(const std::vector<RunRecord>& runs) {
  std::vector<TuiItem> items;
  for (const RunRecord& r : runs) items.push_back({.record = r, .ran = true});
  return items;
}

int last_kernel(const std::vector<TuiItem>& items) {
  for (int k = static_cast<int>(items.size()) - 1; k >= 0; k--)
    if (!items[static_cast<size_t>(k)].record.is_copy) return k;
  return -1;
}

std::vector<int> item_order(const std::vector<TuiItem>& items, bool by_time) {
  std::vector<int> order(items.size());
  for (size_t k = 0; k < items.size(); k++) order[k] = static_cast<int>(k);
  if (!by_time) return order;
  const auto seconds = [&](int k) {
    const TuiItem& t = items[static_cast<size_t>(k)];
    return t.ran ? run_seconds(t.record) : -1.0;
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return seconds(a) > seconds(b); });
  return order;
}

std::vector<RunRecord> longest_first(std::vector<RunRecord> runs) {
  std::stable_sort(runs.begin(), runs.end(),
                   [](const RunRecord& a, const RunRecord& b) { return run_seconds(a) > run_seconds(b); });
  return runs;
}

PaneText kernels_pane(const std::vector<TuiItem>& items, int selected, const std::vector<int>& order,
                      std::string_view heading, int width) {
  if (items.empty()) return placeholder("Kernels", "no kernel has run yet: type an expression in the REPL pane");
  std::vector<std::string> names;
  int name_width = 12;
  for (const TuiItem& t : items) {
    const RunRecord& r = t.record;
    const std::string name = r.is_copy ? fmt::format("copy {}->{}", r.copy.from, r.copy.to) : r.kernel.name;
    names.push_back(r.replayed ? name + " (jit)" : name);
    name_width = std::max(name_width, display_width(names.back()));
  }
  // the columns after the name, each with the space before it: device, time, GFLOPS, GB/s
  constexpr std::array<int, 4> kColumn{7, 10, 7, 7};
  constexpr int kMinName = 12;
  size_t columns = kColumn.size();
  const auto room = [&](size_t n) { return width - 3 - std::accumulate(kColumn.begin(), kColumn.begin() + n, 0); };
  if (width > 0) {
    while (columns > 2 && room(columns) < std::min(name_width, kMinName)) columns--;
    name_width = std::clamp(room(columns), 6, name_width);
  }
  const auto row_text = [&](const std::string& k, const std::string& name, std::vector<std::string> cells) {
    std::string out = fmt::format("{:>2} {}{}", k, name, std::string(static_cast<size_t>(name_width - display_width(name)), ' '));
    cells.resize(std::min(cells.size(), columns));
    for (size_t c = 0; c < cells.size(); c++)
      out += c == 0 ? fmt::format(" {:<6}", cells[c]) : fmt::format(" {:>{}}", cells[c], kColumn[c] - 1);
    return out + "\n";
  };
  std::string text = row_text("K", "kernel", {"device", "time", "GFLOPS", "GB/s"});
  int selected_row = -1;
  for (size_t row = 0; row < order.size(); row++) {
    const auto k = static_cast<size_t>(order[row]);
    if (order[row] == selected) selected_row = static_cast<int>(row);
    const RunRecord& r = items[k].record;
    const std::string name = ellipsized(names[k], name_width);
    const std::string& dev = r.is_copy ? r.copy.to : r.kernel.device;
    if (!items[k].ran) {
      text += row_text(std::to_string(k), name, {dev, "not run"});
      continue;
    }
    const RunRates rate = rates(r);
    const std::string time = time_str(rate.seconds);
    text += row_text(std::to_string(k), name,
                     {dev, time.substr(time.find_first_not_of(' ')), fmt::format("{:.2f}", rate.gflops), fmt::format("{:.2f}", rate.gbs)});
  }
  PaneText p = pane_text(heading.empty() ? "Kernels" : fmt::format("Kernels · {}", heading), text);
  p.fixed = 1;
  if (selected_row >= 0) {
    p.mark_begin = selected_row + 1;  // below the header
    p.mark_end = selected_row + 2;
    p.anchor = std::max(p.fixed, selected_row - 1);
  }
  return p;
}

PaneText copy_placeholder(std::string_view title, int k, const CopyRecord& copy) {
  return placeholder(title, fmt::format("item {} of the schedule is a copy from {} to {}: it has no {}", k, copy.from,
                                        copy.to, title));
}

PaneText ast_pane(const KernelRecord& k, bool opts_marked) {
  const std::string head = ast_text(*k.kernel) + "\n";
  PaneText p = pane_text(fmt::format("AST · {}", k.name), head + opts_text(*k.kernel), Syntax::Listing);
  if (opts_marked) {
    p.mark_begin = p.anchor = static_cast<int>(split_lines(head).size());
    p.mark_end = static_cast<int>(p.lines.size());
  }
  return p;
}

PaneText uops_pane(const KernelRecord& k) {
  // the final listing first, then below it every pass's, so that scrolling down replays the lowering
  return pane_text(fmt::format("UOps · {} · {} uops", k.name, k.program->uops.size()),
                   uops_text(*k.program) + "\n" + passes_text(lowering_passes(k)),
                   Syntax::Listing);
}

const std::vector<std::string>& source_tabs() {
  static const std::vector<std::string> tabs = [] {
    std::vector<std::string> t = backends();
    t.push_back("asm");
    return t;
  }();
  return tabs;
}

int asm_tab() { return static_cast<int>(backends().size()); }

namespace {

// The Asm tab's text, kept for the kernel and backend last shown: it compiles and disassembles, and the
// pane is drawn again at every key. Another backend's code is the kernel lowered again, with or without
// the default opts (NOOPT).
std::string machine_code_text(const KernelRecord& k, const std::string& backend) {
  static std::string key, text;
  const std::string now = fmt::format("{}|{}|{}|{}", backend, k.device, settings().noopt, *k.source);
  if (now != key) {
    text = asm_text(k, backend);
    key = now;
  }
  return text;
}

PaneText asm_pane(const KernelRecord& k, const std::string& asm_backend) {
  std::string text, backend = asm_backend;
  try {
    if (backend.empty()) backend = ran_backend(k);
    text = machine_code_text(k, backend);
  } catch (const std::exception& e) {
    text = fmt::format("// {} cannot express {}: {}\n", backend, k.name, e.what());
  }
  PaneText p = pane_text(fmt::format("Asm · {} · {}", k.name, backend), text, Syntax::Listing);
  p.tabs = source_tabs();
  p.tab = asm_tab();
  return p;
}

}  // namespace

TabSource tab_source(const KernelRecord& k, int tab) {
  const std::string& backend = backends().at(tab);
  try {
    return {backend_source_lines(k, backend), ""};
  } catch (const std::exception& e) {
    return {{}, fmt::format("// {} cannot express {}: {}\n", backend, k.name, e.what())};
  }
}

PaneText source_pane(const KernelRecord& k, int tab, const std::string& asm_backend) {
  return tab == asm_tab() ? asm_pane(k, asm_backend) : source_pane(k, tab, tab_source(k, tab));
}

PaneText source_pane(const KernelRecord& k, int tab, const TabSource& source) {
  const std::string& backend = backends().at(tab);
  const std::string& text = source.error.empty() ? source.lines.source.text : source.error;
  PaneText p = pane_text(fmt::format("Source · {}", k.name), text, syntax_of_backend(backend));
  p.tabs = source_tabs();
  p.tab = tab;
  return p;
}

PaneText timings_pane(const std::vector<RunRecord>& runs, int selected_run, int bar_width,
                      std::string_view session_total, std::string_view heading, int width) {
  const std::string session = session_total.empty() ? "" : fmt::format("session {}\n", session_total);
  PaneText p = pane_text(heading.empty() ? "Timings" : fmt::format("Timings · {}", heading),
                         timings_table(runs, bar_width, width) + session);
  p.fixed = runs.empty() ? 0 : 1;  // the table's header
  if (selected_run >= 0) {
    p.mark_begin = selected_run + 1;  // below the table's header
    p.mark_end = selected_run + 2;
  }
  return p;
}

PaneText diff_pane(std::string_view title, std::string_view diff) {
  return pane_text(std::string(title), diff, Syntax::Diff);
}

PaneText placeholder(std::string_view title, std::string_view why) { return pane_text(std::string(title), why); }

}  // namespace tr::tui
