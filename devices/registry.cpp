#include "devices/registry.h"

#include <cstdlib>
#include <memory>

#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/opt/beam_cache.h"
#include "devices/disk_cache.h"
#include "devices/shims/gpu_shim.h"

namespace tr {

std::unique_ptr<Device> open_cpu(int index);
std::unique_ptr<Device> open_llvm(int index);
std::unique_ptr<Device> open_cuda(int index);
std::unique_ptr<Device> open_metal();
std::unique_ptr<Device> open_nv(int index);
std::unique_ptr<Device> open_webgpu(int index);

#ifdef TINYREPL_HAS_OPENCL
std::unique_ptr<Device> open_opencl(int index);
std::unique_ptr<Device> open_qcom(int index);
#else
static std::unique_ptr<Device> open_opencl(int) {
  fail("device", "this build has no OpenCL: it was configured with TINYREPL_OPENCL=OFF or without an OpenCL ICD loader");
}
static std::unique_ptr<Device> open_qcom(int index) { return open_opencl(index); }
#endif

void register_devices() {
  install_choice_store({.find = cached_text, .keep = cache_text});
  register_device({"CPU", open_cpu, true});
  register_device({"LLVM", open_llvm, true});
  register_device({"OPENCL", open_opencl});
  register_device({"QCOM", open_qcom});
  register_device({"CUDA", open_cuda});
  register_device({"METAL", [](int) { return open_metal(); }});
  register_device({"NV", open_nv});
  register_device({"WEBGPU", open_webgpu});
  register_disassemblers();
  // the Metal and HIP renderers' checking devices, for tests that run the program itself
  if (const char* shims = std::getenv("TINYREPL_SHIMS"); shims && std::string(shims) == "1") {
    register_device({kMetalShim, open_metal_shim});
    register_device({kHipShim, open_hip_shim});
  }
}

}  // namespace tr
