#pragma once
// Shims: devices for tests that run a GPU language's source where no such GPU exists. The source is
// compiled as C++ against a small header of the project's that maps the language's qualifiers, launch
// ids and types onto C++ (METALSHIM: devices/shims/metal/metal_stdlib for the Metal renderer; HIPSHIM:
// devices/shims/hip/hip/hip_runtime.h for the HIP renderer), and the grid runs on the CPU one workgroup after
// another; a kernel with barriers runs each workgroup's threads as fibers of one OS thread, which switch
// at each barrier (devices/shims/fibers.h). They are not in register_devices() (unless TINYREPL_SHIMS=1): tests register them by
// these names.
#include <memory>

#include "core/runtime/device.h"

namespace tr {

inline constexpr const char* kMetalShim = "METALSHIM";
inline constexpr const char* kHipShim = "HIPSHIM";
std::unique_ptr<Device> open_metal_shim(int index);
std::unique_ptr<Device> open_hip_shim(int index);

}  // namespace tr
