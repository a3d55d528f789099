#pragma once
// How the GPU devices (OPENCL, CUDA) turn a kernel's LaunchDims into a grid of workgroups.
#include <array>
#include <cstdint>

#include "core/ir/uops.h"

namespace tr {

struct Grid {
  std::array<int64_t, 3> groups{1, 1, 1};   // workgroups per axis
  std::array<int64_t, 3> threads{1, 1, 1};  // threads per workgroup per axis
  bool operator==(const Grid&) const = default;
};

// With local ids the kernel fixes both: dims.global counts workgroups, dims.local their threads.
// Without, dims.global counts threads, and each axis gets the largest workgroup size that divides
// it (x first, `max_threads` in all, at most `max_per_axis[a]` on axis a), so no thread falls
// outside the grid.
Grid grid_for(const LaunchDims& dims, bool local_ids, int64_t max_threads, const std::array<int64_t, 3>& max_per_axis);

}  // namespace tr
