#pragma once
// The text of the schedule history's views: :kernels of the selected statement, and :history.
#include <string>

#include "repl/app/schedule_history.h"

namespace tr::repl {

// "statement 3: c = (rand(64,64) @ rand(64,64)).realize()"
std::string statement_heading(const StatementSchedule& s);
// The selected statement's items numbered K, each with its buffers and why it is there, as
// viz/schedule_view prints a schedule; a read-back or a @jit replay says so.
std::string items_text(ScheduleHistory& history);
// One row per kept statement: its number, kernels, copies, time and text, the selected one marked.
std::string history_text(const ScheduleHistory& history);

}  // namespace tr::repl
