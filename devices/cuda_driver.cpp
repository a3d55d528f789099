#include "devices/cuda_driver.h"

#include <dlfcn.h>

#include <fmt/format.h>

#include "core/base/error.h"

namespace tr::cuda {
namespace {

template <typename F>
void bind_symbol(void* lib, F& fn, const char* symbol) {
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
  bind_symbol(handle, d->cuInit, "cuInit");
  bind_symbol(handle, d->cuDriverGetVersion, "cuDriverGetVersion");
  bind_symbol(handle, d->cuDeviceGetCount, "cuDeviceGetCount");
  bind_symbol(handle, d->cuDeviceGet, "cuDeviceGet");
  bind_symbol(handle, d->cuDeviceGetName, "cuDeviceGetName");
  bind_symbol(handle, d->cuDeviceGetAttribute, "cuDeviceGetAttribute");
  bind_symbol(handle, d->cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  bind_symbol(handle, d->cuCtxSetCurrent, "cuCtxSetCurrent");
  bind_symbol(handle, d->cuMemAlloc, "cuMemAlloc_v2");
  bind_symbol(handle, d->cuMemFree, "cuMemFree_v2");
  bind_symbol(handle, d->cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  bind_symbol(handle, d->cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  bind_symbol(handle, d->cuModuleLoadData, "cuModuleLoadData");
  bind_symbol(handle, d->cuModuleLoadDataEx, "cuModuleLoadDataEx");
  bind_symbol(handle, d->cuModuleUnload, "cuModuleUnload");
  bind_symbol(handle, d->cuModuleGetFunction, "cuModuleGetFunction");
  bind_symbol(handle, d->cuLaunchKernel, "cuLaunchKernel");
  bind_symbol(handle, d->cuEventCreate, "cuEventCreate");
  bind_symbol(handle, d->cuEventDestroy, "cuEventDestroy_v2");
  bind_symbol(handle, d->cuEventRecord, "cuEventRecord");
  bind_symbol(handle, d->cuEventQuery, "cuEventQuery");
  bind_symbol(handle, d->cuEventElapsedTime, "cuEventElapsedTime");
  bind_symbol(handle, d->cuGetErrorName, "cuGetErrorName");
  bind_symbol(handle, d->cuGetErrorString, "cuGetErrorString");
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
