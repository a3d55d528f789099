#pragma once
// Kernel + opts -> UOps -> source. The passes of this folder run in the order of the table in
// codegen.cpp: loops (launch ids, loops, loads, reduces, stores), stage (a STAGE opt's tiles through
// local memory), tensor_cores (a TC opt's reduce as WMMA steps), expand (upcasts and unrolls become
// copies and lanes), group (GROUP's partial results through local memory), bfloat16 (bfloat16 as bits
// in memory, float in ops), simplify (the rewrite rules), and linearize, which lists the last graph as
// the program. With `keep_passes`, the program also keeps each pass's graph as linearize lists it
// (UOpProgram::passes; the last is the program's UOps), so that DEBUG 6 and `:uops K all` show every
// rewrite; listing them costs as much again as the lowering, so only those ask.
#include <functional>
#include <string>

#include "core/kernel/kernel.h"
#include "core/ir/uops.h"

namespace tr {

UOpProgram codegen(const Kernel& k, const Target& target, const std::string& name, bool keep_passes = false);

// The one way from a kernel with its opts to the source a device compiles, which realize, BEAM and the
// other backends' tabs all take: codegen, then the renderer (a device's own, which may differ from its
// backend's plain one: OpenCL without half arithmetic keeps half in float).
using Renderer = std::function<std::string(const UOpProgram&)>;
struct LoweredKernel {
  UOpProgram program;
  std::string source;
};
LoweredKernel lower_kernel(const Kernel& k, const Target& target, const Renderer& render, const std::string& name);

}  // namespace tr
