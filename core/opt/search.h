#pragma once
// BEAM search over opts: candidates are compiled on every core, timed one at a time on scratch
// buffers, and the fastest kept; the choice is kept (core/opt/beam_cache.h), so a rerun searches nothing.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/runtime/device.h"
#include "core/kernel/kernel.h"
#include "core/opt/opt.h"

namespace tr {

// Times the rendered program on fresh zeroed buffers of these sizes, given these values of its
// Variables: the fastest of at least 3 runs.
double time_program(Device& dev, const UOpProgram& program, const std::string& source,
                    const std::vector<std::pair<DType, int64_t>>& buffers, const std::vector<int32_t>& vars, bool& cached);

// What a kept choice is found by: the width, the device's hardware, the Variables' values, the
// buffers' sizes and the kernel's AST by its structural hash (never its printed text).
std::string beam_key(const Kernel& k, const Device& dev, const std::vector<std::pair<DType, int64_t>>& buffers,
                     const std::vector<int32_t>& vars, int width);

// The kept choice for this kernel on this hardware, else a search: starting from the kernel without
// opts and with the default ones, it keeps the `width` fastest at each step, applying one more opt
// per step, for a few steps. Candidates that do not compile or run are skipped. A kernel over
// symbolic dims is timed with vars as its Variables' values (those its buffers are sized for).
Kernel beam_search(const Kernel& k, Device& dev, const std::vector<std::pair<DType, int64_t>>& buffers,
                   const std::vector<int32_t>& vars, int width);

}  // namespace tr
