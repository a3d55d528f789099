#include "devices/registry.h"

#include <memory>

#include "core/device.h"

namespace tr {

std::unique_ptr<Device> open_cpu();

void register_devices() {
  register_device({"CPU", open_cpu});
}

}  // namespace tr
