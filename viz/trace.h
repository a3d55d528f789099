#pragma once
// The session's profile as a Chrome/Perfetto trace (chrome://tracing, ui.perfetto.dev).
#include <string>
#include <vector>

#include "core/realize/realize.h"

namespace tr {

std::string chrome_trace(const std::vector<RunRecord>& runs);

}  // namespace tr
