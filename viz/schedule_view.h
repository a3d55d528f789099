#pragma once
// Text views of a schedule: one row per kernel or copy, and the fusion story of a tensor.
#include <string>
#include <vector>

#include "core/schedule/schedule.h"

namespace tr {

// The name each kernel item gets on its device with the session's opts (lowered, not run); "" for copies.
std::vector<std::string> kernel_names(const std::vector<ScheduleItem>& items);
// Each item: kind, name, device, output, inputs, and the reason its boundary is where it is.
std::string print_schedule(const std::vector<ScheduleItem>& items);
// The story of x: its lazy graph, then which ops fused into which kernel and why each kernel ends there.
std::string explain(const LazyRef& x);

}  // namespace tr
