#pragma once
// The timings table: per kernel and copy, time, GFLOPS and GB/s with a bar, and the totals.
#include <string>
#include <vector>

#include "core/realize.h"

namespace tr {

struct RunRates {
  double seconds, gflops, gbs;
};
RunRates rates(const RunRecord& r);

// `width` is the bar's room in columns (0: no bars).
std::string timings_table(const std::vector<RunRecord>& runs, int width = 20);

}  // namespace tr
