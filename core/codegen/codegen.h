#pragma once
// Kernel + opts -> UOps, through the passes of this folder in order: loops, expand, group, simplify,
// each listed by linearize. The program keeps each pass's listing (UOpProgram::passes) so that DEBUG 6
// and `:uops K all` show every rewrite; the last listing is the program's UOps.
#include <string>

#include "core/kernel.h"
#include "core/uops.h"

namespace tr {

UOpProgram codegen(const Kernel& k, const Target& target, const std::string& name);

}  // namespace tr
