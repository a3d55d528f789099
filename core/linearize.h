#pragma once
// Kernel + opts -> the linear UOp list, deduplicated and constant-folded, with FLOP/byte estimates.
#include <string>

#include "core/kernel.h"
#include "core/uops.h"

namespace tr {

UOpProgram linearize(const Kernel& k, const Target& target, const std::string& name);

}  // namespace tr
