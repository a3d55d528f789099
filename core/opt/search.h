#pragma once
// BEAM search over opts: candidates are compiled, timed on scratch buffers, and the fastest kept.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/device.h"
#include "core/kernel.h"
#include "core/opt/opt.h"

namespace tr {

// Times one run of the rendered program on fresh zeroed buffers of these sizes, given these values
// of its Variables (the best of 3).
double time_program(Device& dev, const UOpProgram& program, const std::string& source,
                    const std::vector<std::pair<DType, int64_t>>& buffers, const std::vector<int32_t>& vars, bool& cached);

// Keeps the `width` fastest kernels at each step, applying one more opt per step, for a few steps.
// A kernel over symbolic dims is timed with vars as its Variables' values (those its buffers are sized for).
Kernel beam_search(const Kernel& k, Device& dev, const std::vector<std::pair<DType, int64_t>>& buffers,
                   const std::vector<int32_t>& vars, int width);

}  // namespace tr
