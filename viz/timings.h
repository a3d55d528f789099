#pragma once
// The timings table: per kernel and copy, time, GFLOPS and GB/s with a bar, and the totals.
#include <optional>
#include <string>
#include <vector>

#include "core/realize/realize.h"

namespace tr {

struct RunRates {
  double seconds, gflops, gbs;
};
RunRates rates(const RunRecord& r);

// The fastest and the median of a kernel's repeated runs (--repeat N, :time K N); none without repeats.
struct Spread {
  double min, median;
  int runs;
};
std::optional<Spread> spread(const std::vector<double>& repeats);

// `width` is the bar's room in columns (0: no bars). Its last line is the totals_line of the runs. The
// name column is as wide as the longest name; with `fit` > 0 the columns before the bars fit in `fit`
// columns: the device goes first (the Kernels pane shows it), then long names are cut with an ellipsis.
std::string timings_table(const std::vector<RunRecord>& runs, int width = 20, int fit = 0);
std::string totals_line(const RunTotals& totals);

}  // namespace tr
