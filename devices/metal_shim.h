#pragma once
// METALSHIM: a device for tests that runs the Metal renderer's source where no Metal exists. The
// source is compiled as C++ against tests/metal/metal_stdlib, a small header that maps Metal's
// qualifiers, attributes and types onto C++, and the grid runs on the CPU one threadgroup after
// another; a kernel with barriers runs each threadgroup's threads on their own OS threads, which
// meet at a std::barrier. It is not in register_devices(): tests register it by this name.
#include <memory>

#include "core/device.h"

namespace tr {

inline constexpr const char* kMetalShim = "METALSHIM";
std::unique_ptr<Device> open_metal_shim(int index);

}  // namespace tr
