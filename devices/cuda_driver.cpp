#include "devices/cuda_driver.h"

#include <dlfcn.h>

#include <fmt/format.h>

#include "core/base/error.h"

namespace tr::cuda {
namespace {

template <typename F>
void bind(void* lib, F& fn, const char* symbol) {
  fn = reinterpret_cast<F>(::dlsym(lib, symbol));
  if (!fn) fail("device", "libcuda.so.1 has no {}: the NVIDIA driver is too old", symbol);
}

// A function that older drivers lack: null when missing.
template <typename F>
void bind_optional(void* lib, F& fn, const char* symbol) {
  fn = reinterpret_cast<F>(::dlsym(lib, symbol));
}

}  // namespace

std::shared_ptr<const Driver> Driver::load() {
  void* handle = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) fail("device", "no NVIDIA driver: cannot load libcuda.so.1 ({})", ::dlerror());
  auto d = std::make_shared<Driver>();
  d->lib = std::shared_ptr<void>(handle, [](void* h) { ::dlclose(h); });
  // the _v2 entry points are the ones cuda.h has mapped these names to since CUDA 3.2
  bind(handle, d->cuInit, "cuInit");
  bind(handle, d->cuDriverGetVersion, "cuDriverGetVersion");
  bind(handle, d->cuDeviceGetCount, "cuDeviceGetCount");
  bind(handle, d->cuDeviceGet, "cuDeviceGet");
  bind(handle, d->cuDeviceGetName, "cuDeviceGetName");
  bind(handle, d->cuDeviceGetAttribute, "cuDeviceGetAttribute");
  bind(handle, d->cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  bind(handle, d->cuCtxSetCurrent, "cuCtxSetCurrent");
  bind(handle, d->cuMemAlloc, "cuMemAlloc_v2");
  bind(handle, d->cuMemFree, "cuMemFree_v2");
  bind(handle, d->cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  bind(handle, d->cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  bind(handle, d->cuModuleLoadData, "cuModuleLoadData");
  bind(handle, d->cuModuleLoadDataEx, "cuModuleLoadDataEx");
  bind(handle, d->cuModuleUnload, "cuModuleUnload");
  bind(handle, d->cuModuleGetFunction, "cuModuleGetFunction");
  bind(handle, d->cuLaunchKernel, "cuLaunchKernel");
  bind(handle, d->cuEventCreate, "cuEventCreate");
  bind(handle, d->cuEventDestroy, "cuEventDestroy_v2");
  bind(handle, d->cuEventRecord, "cuEventRecord");
  bind(handle, d->cuEventQuery, "cuEventQuery");
  bind(handle, d->cuEventElapsedTime, "cuEventElapsedTime");
  bind(handle, d->cuGetErrorName, "cuGetErrorName");
  bind(handle, d->cuGetErrorString, "cuGetErrorString");
  bind_optional(handle, d->cuGraphCreate, "cuGraphCreate");
  bind_optional(handle, d->cuGraphDestroy, "cuGraphDestroy");
  bind_optional(handle, d->cuGraphAddKernelNode, "cuGraphAddKernelNode_v2");
  bind_optional(handle, d->cuGraphAddEventRecordNode, "cuGraphAddEventRecordNode");
  bind_optional(handle, d->cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags");
  bind_optional(handle, d->cuGraphExecKernelNodeSetParams, "cuGraphExecKernelNodeSetParams_v2");
  bind_optional(handle, d->cuGraphLaunch, "cuGraphLaunch");
  bind_optional(handle, d->cuGraphExecDestroy, "cuGraphExecDestroy");
  return d;
}

bool Driver::has_graphs() const {
  return cuGraphCreate && cuGraphDestroy && cuGraphAddKernelNode && cuGraphAddEventRecordNode && cuGraphInstantiateWithFlags &&
         cuGraphExecKernelNodeSetParams && cuGraphLaunch && cuGraphExecDestroy;
}

std::string Driver::error(CUresult r) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuGetErrorName(r, &name) != 0 || !name) return fmt::format("CUDA error {}", r);
  cuGetErrorString(r, &text);
  return text ? fmt::format("{}: {}", name, text) : name;
}

void Driver::check(CUresult r, const std::string& what) const {
  if (r != 0) fail("device", "{} failed: {}", what, error(r));
}

}  // namespace tr::cuda
