#include "devices/registry.h"

#include <memory>

#include "core/device.h"
#include "core/error.h"

namespace tr {

std::unique_ptr<Device> open_cpu();
std::unique_ptr<Device> open_llvm();
std::unique_ptr<Device> open_cuda();
std::unique_ptr<Device> open_metal();

#ifdef TINYREPL_HAS_OPENCL
std::unique_ptr<Device> open_opencl();
#else
static std::unique_ptr<Device> open_opencl() {
  fail("device", "this build has no OpenCL: it was configured with TINYREPL_OPENCL=OFF or without an OpenCL ICD loader");
}
#endif

void register_devices() {
  register_device({"CPU", open_cpu});
  register_device({"LLVM", open_llvm});
  register_device({"OPENCL", open_opencl});
  register_device({"CUDA", open_cuda});
  register_device({"METAL", open_metal});
}

}  // namespace tr
