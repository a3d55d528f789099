#pragma once
// Where tinyrepl fuses what the notes (seeds 001 and 003) and tinygrad split: a reduce's result that later
// ops of the same kernel read expanded back over its rows (var's mean, softmax's max and sum). :explain
// says what they do there, why tinyrepl differs, and how to see their version.
#include <cstdint>
#include <map>
#include <string>

#include "core/schedule/schedule.h"

namespace tr {

// The paragraph for kernel item, whose lazy nodes nodes maps by id; "" when it splits nothing the notes
// would have kept apart.
std::string split_by_the_notes(const ScheduleItem& item, const std::map<uint64_t, const LazyNode*>& nodes);

// Why kernel item is one walk of its rows, where it is an online softmax (core/kernel/online_softmax.h);
// "" where it is not.
std::string online_softmax_note(const ScheduleItem& item);

}  // namespace tr
