#include "devices/webgpu_api.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "core/base/error.h"

namespace tr::webgpu {
namespace {

// Not `bind`: the std::string argument makes argument-dependent lookup see std::bind, which a call
// with these arguments matches better (it did once <functional> came into this file).
template <typename F>
void bind_symbol(void* lib, const std::string& path, F& fn, const char* symbol) {
  fn = reinterpret_cast<F>(::dlsym(lib, symbol));
  if (!fn) fail("device", "{} has no {}: it is not wgpu-native {}", path, symbol, version_name(kVersion));
}

std::string install_hint() {
  return fmt::format("install it with `python3 -m pip install {}` (reconfigure with CMake to find the wheel's copy, or point "
                     "TINYREPL_WEBGPU_LIB at its wgpu/resources/libwgpu_native-release.so); on a machine without a GPU "
                     "driver `apt-get install mesa-vulkan-drivers` gives it a CPU one",
                     kWheel);
}

}  // namespace

std::string str(StringView s) {
  if (!s.data) return "";
  return s.length == kStrlen ? std::string(s.data) : std::string(s.data, s.length);
}

std::string version_name(uint32_t v) { return fmt::format("{}.{}.{}.{}", v >> 24, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff); }

std::shared_ptr<const Api> Api::load() {
  std::vector<std::string> candidates, tried;
  if (const char* env = std::getenv("TINYREPL_WEBGPU_LIB"); env && *env)
    candidates.push_back(env);
  else
    tried.push_back("TINYREPL_WEBGPU_LIB is not set");
#ifdef TINYREPL_WEBGPU_DEFAULT_LIB
  candidates.push_back(TINYREPL_WEBGPU_DEFAULT_LIB);
#else
  tried.push_back("CMake found no wgpu wheel");
#endif
  candidates.push_back("libwgpu_native.so");
  void* handle = nullptr;
  std::string path;
  for (const std::string& c : candidates) {
    // never closed: a Rust library that has run threads may leave thread-local destructors pointing into it
    handle = ::dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (handle) {
      path = c;
      break;
    }
    const char* why = ::dlerror();
    tried.push_back(why ? why : c + ": cannot be loaded");
  }
  if (!handle)
    fail("device", "cannot load wgpu-native {} ({}): {}", version_name(kVersion), fmt::join(tried, "; "), install_hint());
  auto api = std::make_shared<Api>();
  api->path = path;
  bind_symbol(handle, path, api->wgpuGetVersion, "wgpuGetVersion");
  if (const uint32_t v = api->wgpuGetVersion(); v != kVersion)
    fail("device", "{} is wgpu-native {}, and WEBGPU speaks the C API of wgpu-native {} only: {}", path, version_name(v),
         version_name(kVersion), install_hint());
  bind_symbol(handle, path, api->wgpuCreateInstance, "wgpuCreateInstance");
  bind_symbol(handle, path, api->wgpuInstanceRelease, "wgpuInstanceRelease");
  bind_symbol(handle, path, api->wgpuInstanceProcessEvents, "wgpuInstanceProcessEvents");
  bind_symbol(handle, path, api->wgpuInstanceEnumerateAdapters, "wgpuInstanceEnumerateAdapters");
  bind_symbol(handle, path, api->wgpuAdapterGetInfo, "wgpuAdapterGetInfo");
  bind_symbol(handle, path, api->wgpuAdapterInfoFreeMembers, "wgpuAdapterInfoFreeMembers");
  bind_symbol(handle, path, api->wgpuAdapterGetLimits, "wgpuAdapterGetLimits");
  bind_symbol(handle, path, api->wgpuAdapterHasFeature, "wgpuAdapterHasFeature");
  bind_symbol(handle, path, api->wgpuAdapterRequestDevice, "wgpuAdapterRequestDevice");
  bind_symbol(handle, path, api->wgpuAdapterRelease, "wgpuAdapterRelease");
  bind_symbol(handle, path, api->wgpuDeviceRelease, "wgpuDeviceRelease");
  bind_symbol(handle, path, api->wgpuDeviceGetQueue, "wgpuDeviceGetQueue");
  bind_symbol(handle, path, api->wgpuDevicePoll, "wgpuDevicePoll");
  bind_symbol(handle, path, api->wgpuDevicePushErrorScope, "wgpuDevicePushErrorScope");
  bind_symbol(handle, path, api->wgpuDevicePopErrorScope, "wgpuDevicePopErrorScope");
  bind_symbol(handle, path, api->wgpuDeviceCreateBuffer, "wgpuDeviceCreateBuffer");
  bind_symbol(handle, path, api->wgpuDeviceCreateShaderModule, "wgpuDeviceCreateShaderModule");
  bind_symbol(handle, path, api->wgpuDeviceCreateBindGroupLayout, "wgpuDeviceCreateBindGroupLayout");
  bind_symbol(handle, path, api->wgpuDeviceCreatePipelineLayout, "wgpuDeviceCreatePipelineLayout");
  bind_symbol(handle, path, api->wgpuDeviceCreateComputePipeline, "wgpuDeviceCreateComputePipeline");
  bind_symbol(handle, path, api->wgpuDeviceCreateBindGroup, "wgpuDeviceCreateBindGroup");
  bind_symbol(handle, path, api->wgpuDeviceCreateCommandEncoder, "wgpuDeviceCreateCommandEncoder");
  bind_symbol(handle, path, api->wgpuDeviceCreateQuerySet, "wgpuDeviceCreateQuerySet");
  bind_symbol(handle, path, api->wgpuQueueRelease, "wgpuQueueRelease");
  bind_symbol(handle, path, api->wgpuQueueSubmit, "wgpuQueueSubmit");
  bind_symbol(handle, path, api->wgpuQueueWriteBuffer, "wgpuQueueWriteBuffer");
  bind_symbol(handle, path, api->wgpuQueueOnSubmittedWorkDone, "wgpuQueueOnSubmittedWorkDone");
  bind_symbol(handle, path, api->wgpuQueueGetTimestampPeriod, "wgpuQueueGetTimestampPeriod");
  bind_symbol(handle, path, api->wgpuBufferRelease, "wgpuBufferRelease");
  bind_symbol(handle, path, api->wgpuBufferMapAsync, "wgpuBufferMapAsync");
  bind_symbol(handle, path, api->wgpuBufferGetConstMappedRange, "wgpuBufferGetConstMappedRange");
  bind_symbol(handle, path, api->wgpuBufferUnmap, "wgpuBufferUnmap");
  bind_symbol(handle, path, api->wgpuShaderModuleRelease, "wgpuShaderModuleRelease");
  bind_symbol(handle, path, api->wgpuBindGroupLayoutRelease, "wgpuBindGroupLayoutRelease");
  bind_symbol(handle, path, api->wgpuBindGroupRelease, "wgpuBindGroupRelease");
  bind_symbol(handle, path, api->wgpuPipelineLayoutRelease, "wgpuPipelineLayoutRelease");
  bind_symbol(handle, path, api->wgpuComputePipelineRelease, "wgpuComputePipelineRelease");
  bind_symbol(handle, path, api->wgpuQuerySetRelease, "wgpuQuerySetRelease");
  bind_symbol(handle, path, api->wgpuCommandEncoderRelease, "wgpuCommandEncoderRelease");
  bind_symbol(handle, path, api->wgpuCommandEncoderBeginComputePass, "wgpuCommandEncoderBeginComputePass");
  bind_symbol(handle, path, api->wgpuCommandEncoderCopyBufferToBuffer, "wgpuCommandEncoderCopyBufferToBuffer");
  bind_symbol(handle, path, api->wgpuCommandEncoderResolveQuerySet, "wgpuCommandEncoderResolveQuerySet");
  bind_symbol(handle, path, api->wgpuCommandEncoderFinish, "wgpuCommandEncoderFinish");
  bind_symbol(handle, path, api->wgpuCommandBufferRelease, "wgpuCommandBufferRelease");
  bind_symbol(handle, path, api->wgpuComputePassEncoderSetPipeline, "wgpuComputePassEncoderSetPipeline");
  bind_symbol(handle, path, api->wgpuComputePassEncoderSetBindGroup, "wgpuComputePassEncoderSetBindGroup");
  bind_symbol(handle, path, api->wgpuComputePassEncoderDispatchWorkgroups, "wgpuComputePassEncoderDispatchWorkgroups");
  bind_symbol(handle, path, api->wgpuComputePassEncoderEnd, "wgpuComputePassEncoderEnd");
  bind_symbol(handle, path, api->wgpuComputePassEncoderRelease, "wgpuComputePassEncoderRelease");
  return api;
}

}  // namespace tr::webgpu
