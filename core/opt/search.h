#pragma once
// BEAM search over opts: candidates are compiled, timed on scratch buffers, and the fastest kept.
#include <utility>
#include <vector>

#include "core/device.h"
#include "core/kernel.h"
#include "core/opt/opt.h"

namespace tr {

// Times one run of the rendered program on fresh zeroed buffers of these sizes (the best of 3).
double time_program(Device& dev, const UOpProgram& program, const std::string& source,
                    const std::vector<std::pair<DType, int64_t>>& buffers, bool& cached);

// Keeps the `width` fastest kernels at each step, applying one more opt per step, for a few steps.
Kernel beam_search(const Kernel& k, Device& dev, const std::vector<std::pair<DType, int64_t>>& buffers, int width);

}  // namespace tr
