#pragma once
// The example device plug-in (devices/plugin_example, built as tinyrepl_cpu_plugin), loaded once into
// the test process so that the device suites run on it as PLUGCPU beside the built-in devices.
#include <algorithm>

#include "core/runtime/device.h"
#include "devices/plugin.h"

namespace tr::testing {

inline constexpr const char* kPluginDevice = "PLUGCPU";

inline void load_example_plugin() {
  const auto& known = registered_devices();
  if (std::none_of(known.begin(), known.end(), [](const DeviceEntry& e) { return e.name == kPluginDevice; }))
    load_device_plugin(TINYREPL_CPU_PLUGIN);
}

}  // namespace tr::testing
