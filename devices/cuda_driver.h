#pragma once
// The part of the CUDA driver API that the CUDA device uses, declared here and loaded from
// libcuda.so.1 at run time, so that building needs no CUDA at all.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace tr::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUgraph = struct CUgraph_st*;
using CUgraphNode = struct CUgraphNode_st*;
using CUgraphExec = struct CUgraphExec_st*;

// CUDA_KERNEL_NODE_PARAMS_v2 of cuda.h: a kernel node of a graph
struct KernelNodeParams {
  CUfunction func = nullptr;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned shared_bytes = 0;
  void** params = nullptr;
  void** extra = nullptr;
  void* kern = nullptr;
  CUcontext ctx = nullptr;
};

// CUdevice_attribute values from cuda.h
inline constexpr int kMaxThreadsPerBlock = 1;
inline constexpr int kMaxBlockDimX = 2, kMaxBlockDimY = 3, kMaxBlockDimZ = 4;
inline constexpr int kMaxGridDimX = 5, kMaxGridDimY = 6, kMaxGridDimZ = 7;
inline constexpr int kMaxSharedMemoryPerBlock = 8, kWarpSize = 10;
inline constexpr int kMultiprocessorCount = 16;
inline constexpr int kComputeCapabilityMajor = 75, kComputeCapabilityMinor = 76;
// CUjit_option values: where the PTX compiler writes its errors
inline constexpr int kJitErrorLogBuffer = 5, kJitErrorLogBufferSize = 6;
// CUresult of cuEventQuery while the work before the event still runs
inline constexpr CUresult kCudaNotReady = 600;

struct Driver {
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDriverGetVersion)(int*) = nullptr;
  CUresult (*cuDeviceGetCount)(int*) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule*, const void*) = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                             void**, void**) = nullptr;
  CUresult (*cuEventCreate)(CUevent*, unsigned) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventQuery)(CUevent) = nullptr;
  CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char**) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;
  // graphs (CUDA 12); null when the driver is older, and replays then launch kernel by kernel
  CUresult (*cuGraphCreate)(CUgraph*, unsigned) = nullptr;
  CUresult (*cuGraphDestroy)(CUgraph) = nullptr;
  CUresult (*cuGraphAddKernelNode)(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, const KernelNodeParams*) = nullptr;
  CUresult (*cuGraphAddEventRecordNode)(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, CUevent) = nullptr;
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec*, CUgraph, unsigned long long) = nullptr;
  CUresult (*cuGraphExecKernelNodeSetParams)(CUgraphExec, CUgraphNode, const KernelNodeParams*) = nullptr;
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream) = nullptr;
  CUresult (*cuGraphExecDestroy)(CUgraphExec) = nullptr;
  bool has_graphs() const;

  // Throws tr::Error("device") saying why libcuda.so.1 (or one of its functions) is missing.
  static std::shared_ptr<const Driver> load();
  // Throws tr::Error("device", "<what> failed: CUDA_ERROR_...: <description>") unless r is success.
  void check(CUresult r, const std::string& what) const;
  std::string error(CUresult r) const;

  std::shared_ptr<void> lib;  // the dlopen handle, closed with the last copy
};

}  // namespace tr::cuda
