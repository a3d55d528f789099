#pragma once
// Each pane's text for the kernels of a run: the printers of core/ and viz/, arranged for a pane.
#include <string>
#include <string_view>
#include <vector>

#include "core/realize/realize.h"
#include "viz/stages.h"
#include "viz/tui/pane_text.h"
#include "viz/tui/tui.h"

namespace tr::tui {

// Indices into runs of the kernel runs.
std::vector<int> kernel_runs(const std::vector<RunRecord>& runs);
// Runs that follow a schedule item by item (a :step's run) as its items.
std::vector<TuiItem> items_of(const std::vector<RunRecord>& runs);
// The last kernel among the items (the one :ast K picks without K), or -1.
int last_kernel(const std::vector<TuiItem>& items);

// The K of each row of the Kernels pane: K order, or by time, the longest first (those not run last).
std::vector<int> item_order(const std::vector<TuiItem>& items, bool by_time);
// The runs by time, the longest first.
std::vector<RunRecord> longest_first(std::vector<RunRecord> runs);
// One row per item, kernel or copy, numbered K as :kernels numbers them: K, name, device, time, GFLOPS,
// GB/s, in `order`, under a header that stays put; `selected` is a K. `heading` follows the title:
// whose schedule it is. In `width` columns (0: any): the rates go first (Timings beside shows them), then
// long names are cut with an ellipsis, so that the columns stay aligned and whole.
PaneText kernels_pane(const std::vector<TuiItem>& items, int selected, const std::vector<int>& order,
                      std::string_view heading, int width = 0);
// What the AST, UOps and Source panes say of item K when it is a copy.
PaneText copy_placeholder(std::string_view title, int k, const CopyRecord& copy);
// The Ast stage, then the Opts stage (viz/stages); with opts_marked,
// that last part is marked and scrolled to (the opts stage of :step).
PaneText ast_pane(const KernelRecord& k, bool opts_marked = false);
// The final listing and launch dims, then the UOps after each lowering pass.
PaneText uops_pane(const KernelRecord& k);
// The Source pane's tabs: every backend, then "asm", the kernel's machine code.
const std::vector<std::string>& source_tabs();
int asm_tab();
// backends()[tab]'s source of k with the UOps each line spells, or why the backend cannot express k.
struct TabSource {
  SourceLines lines;
  std::string error;  // "" where it rendered
};
TabSource tab_source(const KernelRecord& k, int tab);
// Rendered for backends()[tab], with a tab for each of source_tabs().
PaneText source_pane(const KernelRecord& k, int tab, const TabSource& source);
// Rendered for source_tabs()[tab]; the Asm tab shows the code of asm_backend ("": the backend of the
// device the kernel ran on).
PaneText source_pane(const KernelRecord& k, int tab, const std::string& asm_backend = "");
// timings_table of the runs (in the order given) with `selected_run` marked, under a header that stays
// put, then the session's total line; `heading` follows the title.
PaneText timings_pane(const std::vector<RunRecord>& runs, int selected_run, int bar_width,
                      std::string_view session_total, std::string_view heading, int width = 0);
// A unified diff (viz/line_diff.h) with its removed and added lines in colour.
PaneText diff_pane(std::string_view title, std::string_view diff);
// A pane with nothing to show yet, and why.
PaneText placeholder(std::string_view title, std::string_view why);

}  // namespace tr::tui
