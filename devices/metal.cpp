// METAL: listed by the registry so that `:device` shows it and says why it cannot open. This build
// has no Metal runtime; on every machine the metal backend renders source, and the tests run that
// source through the C++ shim of devices/gpu_shim.
#include <memory>

#include "core/runtime/device.h"
#include "core/base/error.h"

namespace tr {

std::unique_ptr<Device> open_metal() {
#ifdef __APPLE__
  fail("device", "this build has no Metal runtime: the metal backend renders source only (:render metal)");
#else
  fail("device", "Metal exists only on macOS: on this machine the metal backend renders source only (:render metal)");
#endif
}

}  // namespace tr
