#pragma once
// A GPU on the CUDA driver API (libcuda, loaded at run time), with its code made one of two ways:
// the CUDA renderer's C++ compiled by NVRTC (the CUDA device), or the PTX renderer's assembly,
// which the driver compiles itself as it loads the module (the NV device, devices/nv.cpp).
#include <cstdint>
#include <memory>
#include <string>

#include "core/runtime/device.h"
#include "devices/cuda_driver.h"

namespace tr {

enum class CudaCode : uint8_t { Nvrtc, Ptx };

std::unique_ptr<Device> open_cuda_device(CudaCode code, int index);
// What the CUDA device (CUDA:0) compiles for: "sm_90" (a cubin of NVRTC's) or "compute_89" (PTX that
// the driver compiles); throws tr::Error("device") when it does not open.
std::string cuda_compile_arch();

// Loads PTX text into a module of the current context; a PTX the driver refuses throws
// tr::Error("compile") with the driver's own message.
cuda::CUmodule load_ptx(const cuda::Driver& d, const std::string& ptx, const std::string& kernel);

}  // namespace tr
