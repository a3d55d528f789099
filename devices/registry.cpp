#include "devices/registry.h"

#include <cstdlib>
#include <memory>

#include "core/device.h"
#include "core/error.h"
#include "devices/metal_shim.h"

namespace tr {

std::unique_ptr<Device> open_cpu();
std::unique_ptr<Device> open_llvm();
std::unique_ptr<Device> open_cuda();
std::unique_ptr<Device> open_metal();
std::unique_ptr<Device> open_nv();

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
  register_device({"NV", open_nv});
  // the Metal renderer's checking device, for tests that run the program itself
  if (const char* shim = std::getenv("TINYREPL_METAL_SHIM"); shim && std::string(shim) == "1")
    register_device({kMetalShim, open_metal_shim});
}

}  // namespace tr
