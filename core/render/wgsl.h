#pragma once
// What a WebGPU device needs to know of the WGSL renderer's spelling beyond the source.
#include <array>
#include <cstdint>

#include "core/uops.h"

namespace tr {

// The workgroups to dispatch for a WGSL kernel that needs `groups` of them, WebGPU allowing `limit`
// per axis. A kernel whose ids use no z axis spells its x workgroup id gid.x + gid.z * num_workgroups.x,
// so more x workgroups than the limit fold into z where a divisor of their count fits; the result may
// still pass the limit, and the device refuses it then.
std::array<int64_t, 3> wgsl_dispatch(const UOpProgram& p, const std::array<int64_t, 3>& groups, int64_t limit);

}  // namespace tr
