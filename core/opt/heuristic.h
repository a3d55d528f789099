#pragma once
// The default opts: a hand-written heuristic that reads the target (vector lanes, cores, workgroup
// limits and local memory) rather than numbers of one machine.
#include "core/kernel.h"
#include "core/target.h"

namespace tr {

Kernel default_opts(const Kernel& k, const Target& target);

}  // namespace tr
