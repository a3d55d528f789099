#pragma once
// A schedule kept to be looked at after it ran (the REPL's schedule history), without what it ran on.
#include <vector>

#include "core/schedule/schedule.h"

namespace tr {

// The same items, whose outputs and inputs are stand-ins: each keeps its node's id, dtype, shape,
// device, symbolic dims and buffer size (a buffer without memory), so that the kept items print and
// lower as the originals did; none holds a buffer's memory or the graph that made it, which a kept
// schedule would otherwise keep alive after its tensors are gone. A node that several items share
// has one stand-in.
std::vector<ScheduleItem> detached(const std::vector<ScheduleItem>& items);

}  // namespace tr
