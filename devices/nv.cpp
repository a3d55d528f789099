// NV: the PTX renderer's assembly, compiled by the CUDA driver as it loads the module (no NVRTC),
// on the CUDA device's driver API, allocation and launch code (devices/cuda.cpp).
#include <fmt/format.h>

#include "core/base/error.h"
#include "devices/cuda_device.h"

namespace tr {

using namespace cuda;

CUmodule load_ptx(const Driver& d, const std::string& ptx, const std::string& kernel) {
  std::string log(16 << 10, '\0');
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize};
  void* values[] = {log.data(), reinterpret_cast<void*>(static_cast<uintptr_t>(log.size()))};
  CUmodule module = nullptr;
  if (const CUresult r = d.cuModuleLoadDataEx(&module, ptx.c_str(), 2, options, values); r != 0) {
    log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
    fail("compile", "the CUDA driver cannot compile the PTX of {}: {}\n{}\n--- source ---\n{}", kernel, d.error(r), log, ptx);
  }
  return module;
}

std::unique_ptr<Device> open_nv(int index) { return open_cuda_device(CudaCode::Ptx, index); }

}  // namespace tr
