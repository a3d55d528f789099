#pragma once
// Kernel + opts -> UOps, through the passes of this folder in order: loops, expand, group, simplify,
// and linearize, which lists the last graph as the program. With `keep_passes`, the program also keeps
// each pass's graph as linearize lists it (UOpProgram::passes; the last is the program's UOps), so
// that DEBUG 6 and `:uops K all` show every rewrite; listing them costs as much again as the lowering,
// so only those ask.
#include <string>

#include "core/kernel/kernel.h"
#include "core/ir/uops.h"

namespace tr {

UOpProgram codegen(const Kernel& k, const Target& target, const std::string& name, bool keep_passes = false);

}  // namespace tr
