#pragma once
// Devices added at run time: a shared library with the C interface of devices/tinyrepl_device.h.
#include <string>

namespace tr {

// Opens the library, asks it for its device and registers that device under its own name; returns
// the name. Throws tr::Error("device") saying why a library is not a usable plug-in (it does not
// open, lacks tinyrepl_device_open, was built for another interface version, names an unknown
// renderer, or a device of that name exists already).
std::string load_device_plugin(const std::string& path);

}  // namespace tr
