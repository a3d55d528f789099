#pragma once
// What a WebGPU device needs to know of the WGSL renderer's spelling beyond the source.
#include <array>
#include <cstdint>

#include "core/ir/uops.h"

namespace tr {

// Every WGSL kernel spells its x workgroup id gid.x + gid.z * num_workgroups.x; where its ids use no
// z axis (z_free), more x workgroups than WebGPU's `limit` per axis fold into z.
bool wgsl_z_free(const UOpProgram& p);
// The workgroups to dispatch for a kernel that needs `groups` of them: x folded into z where z is free
// and a divisor of the x count fits. The result may still pass the limit: the device refuses it then.
std::array<int64_t, 3> wgsl_dispatch(const std::array<int64_t, 3>& groups, bool z_free, int64_t limit);

}  // namespace tr
