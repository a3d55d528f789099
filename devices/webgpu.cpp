// WEBGPU: WGSL compute kernels run through wgpu-native (devices/webgpu_api.h, loaded at run time) on
// an adapter of Vulkan, Metal or DX12: a GPU's driver, or Mesa's lavapipe (Vulkan on the CPU) on a
// machine without one. WebGPU keeps no compiled binaries that a later run could load, so nothing goes
// to the on-disk cache: every compile builds its pipeline from the source, and `cached` is false.
// WebGPU asks every buffer to be a multiple of 4 bytes: buffers are allocated rounded up, and a copy
// of an odd size moves its last bytes through a padded word. A kernel's time comes from timestamps the
// compute pass writes where the adapter has timestamp-query, else from the wall time of submit to done;
// lavapipe has them (its timestamps for a 50 ms kernel were within 1% of the wall time).
#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstring>
#include <functional>
#include <list>
#include <mutex>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/render/render.h"
#include "core/render/wgsl.h"
#include "devices/gpu_launch.h"
#include "devices/stderr_capture.h"
#include "devices/gpu_wait.h"
#include "devices/webgpu_api.h"

namespace tr {
namespace {

using namespace webgpu;

template <typename Handle>
struct Release {
  void (*fn)(Handle) = nullptr;
  void operator()(Handle h) const { fn(h); }
};
// A WebGPU object, released when it goes.
template <typename Handle>
using Ref = std::unique_ptr<std::remove_pointer_t<Handle>, Release<Handle>>;

template <typename Handle>
Ref<Handle> own(Handle h, void (*release)(Handle)) {
  return Ref<Handle>(h, Release<Handle>{release});
}

uint64_t padded(int64_t bytes) { return std::max<uint64_t>(4, (static_cast<uint64_t>(bytes) + 3) / 4 * 4); }

// What one asynchronous call reported through its callback.
struct Outcome {
  std::atomic<bool> done{false};
  bool ok = false;
  std::string message;
  DeviceHandle device = nullptr;  // a device request's
};

// Where the callbacks write. An Outcome stays until its waiter is done with it: one whose waiter gave up
// (Ctrl-C) stays until the device goes, for its callback still comes (with the buffer's release, at the
// latest with the device's), and must find it there.
class Callbacks {
 public:
  Outcome& make() {
    const std::lock_guard lock(mutex_);
    return outcomes_.emplace_back();
  }
  void forget(const Outcome& o) {
    const std::lock_guard lock(mutex_);
    outcomes_.remove_if([&](const Outcome& x) { return &x == &o; });
  }
  // An error no scope caught: the call that made it reports it.
  void uncaught(std::string message) {
    const std::lock_guard lock(mutex_);
    if (uncaught_.empty()) uncaught_ = std::move(message);
  }
  void lost(std::string why) {
    const std::lock_guard lock(mutex_);
    lost_ = std::move(why);
  }
  bool is_lost() {
    const std::lock_guard lock(mutex_);
    return !lost_.empty();
  }
  // What went wrong since the last look ("" for nothing); a lost device stays lost.
  std::string take_error() {
    const std::lock_guard lock(mutex_);
    if (!lost_.empty()) return lost_;
    return std::exchange(uncaught_, std::string());
  }

 private:
  std::mutex mutex_;
  std::list<Outcome> outcomes_;
  std::string uncaught_, lost_;
};

void finish(void* outcome, bool ok, StringView message) {
  auto* o = static_cast<Outcome*>(outcome);
  o->ok = ok;
  o->message = str(message);
  o->done.store(true);
}

void on_device(RequestDeviceStatus status, DeviceHandle device, StringView message, void* outcome, void*) {
  static_cast<Outcome*>(outcome)->device = device;
  finish(outcome, status == RequestDeviceStatus::Success && device, message);
}

void on_pop(PopErrorScopeStatus status, ErrorType type, StringView message, void* outcome, void*) {
  finish(outcome, status == PopErrorScopeStatus::Success && type == ErrorType::NoError, message);
}

void on_map(MapAsyncStatus status, StringView message, void* outcome, void*) {
  finish(outcome, status == MapAsyncStatus::Success, message);
}

void on_work_done(QueueWorkDoneStatus status, StringView message, void* outcome, void*) {
  finish(outcome, status == QueueWorkDoneStatus::Success, message);
}

// Without this callback wgpu-native panics (aborts the process) on an error no scope caught.
void on_uncaught(const DeviceHandle*, ErrorType, StringView message, void* callbacks, void*) {
  static_cast<Callbacks*>(callbacks)->uncaught(str(message));
}

void on_lost(const DeviceHandle*, DeviceLostReason reason, StringView message, void* callbacks, void*) {
  switch (reason) {
    case DeviceLostReason::Destroyed:
    case DeviceLostReason::CallbackCancelled: return;  // our own release
    case DeviceLostReason::Unknown:
    case DeviceLostReason::FailedCreation: break;
  }
  static_cast<Callbacks*>(callbacks)->lost(fmt::format("the WebGPU device was lost: {}", str(message)));
}

std::string_view backend_name(BackendType b) {
  switch (b) {
    case BackendType::Undefined: return "no backend";
    case BackendType::Null: return "Null";
    case BackendType::WebGPU: return "WebGPU";
    case BackendType::D3D11: return "D3D11";
    case BackendType::D3D12: return "D3D12";
    case BackendType::Metal: return "Metal";
    case BackendType::Vulkan: return "Vulkan";
    case BackendType::OpenGL: return "OpenGL";
    case BackendType::OpenGLES: return "OpenGLES";
  }
  return "an unknown backend";
}

std::string_view adapter_kind(AdapterType t) {
  switch (t) {
    case AdapterType::DiscreteGPU: return "discrete GPU";
    case AdapterType::IntegratedGPU: return "integrated GPU";
    case AdapterType::CPU: return "CPU";
    case AdapterType::Unknown: break;
  }
  return "unknown kind";
}

// The device's WebGPU objects, shared with its programs, so that either may go first. Members go in
// reverse order: the objects before the callbacks they may still call while released.
struct Gpu {
  std::shared_ptr<const Api> api;
  std::unique_ptr<Callbacks> callbacks = std::make_unique<Callbacks>();
  Ref<Instance> instance;
  Ref<Adapter> adapter;
  Ref<DeviceHandle> device;
  Ref<Queue> queue;
  Limits limits;
  bool timestamps = false;  // the adapter has timestamp-query and the device asked for it
  bool f16 = false;
  double timestamp_ns = 1;  // nanoseconds per timestamp tick
  std::string description;
  mutable std::mutex scopes;

  // Polls until the callback has come; throws Error("interrupt") on Ctrl-C, and never blocks in the
  // driver, for which wgpuDevicePoll is asked not to wait.
  void wait(const Outcome& o) const {
    wait_for_gpu([&] {
      if (o.done.load()) return true;
      if (device) api->wgpuDevicePoll(device.get(), 0, nullptr);
      api->wgpuInstanceProcessEvents(instance.get());
      return o.done.load() || callbacks->is_lost();
    });
  }

  // Throws tr::Error("device") with an error that no scope caught since the last look.
  void check(std::string_view what) const {
    if (const std::string e = callbacks->take_error(); !e.empty()) fail("device", "WebGPU: {} failed: {}", what, e);
  }

  // Runs make() inside error scopes and returns the errors it raised ("" when none). wgpu-native scopes
  // validation and out-of-memory errors only (it panics on a scope of internal ones), and those reach the
  // uncaptured-error callback, which keeps them for here. The scopes are popped before any wait, so that a
  // Ctrl-C leaves none pushed.
  std::string errors_of(const std::function<void()>& make) const {
    constexpr std::array filters{ErrorFilter::OutOfMemory, ErrorFilter::Validation};
    // the scopes are the device's, one stack for every thread, and kernels compile on several at once
    const std::lock_guard lock(scopes);
    check("an earlier call");
    for (const ErrorFilter f : filters) api->wgpuDevicePushErrorScope(device.get(), f);
    make();
    std::array<Outcome*, filters.size()> popped{};
    for (Outcome*& o : popped) {
      o = &callbacks->make();
      api->wgpuDevicePopErrorScope(device.get(), {.mode = CallbackMode::AllowProcessEvents, .callback = on_pop, .userdata1 = o});
    }
    std::string errors;
    for (Outcome* o : popped) {
      wait(*o);
      if (!o->ok) errors += (errors.empty() ? "" : "\n") + o->message;
      callbacks->forget(*o);
    }
    if (std::string uncaught = callbacks->take_error(); !uncaught.empty()) errors += (errors.empty() ? "" : "\n") + uncaught;
    while (!errors.empty() && std::isspace(static_cast<unsigned char>(errors.back()))) errors.pop_back();
    return errors;
  }

  // A buffer of this usage; an allocation WebGPU refuses is tr::Error("memory").
  Ref<BufferHandle> buffer(uint64_t bytes, Flags usage) const {
    const BufferDescriptor d{.usage = usage, .size = bytes};
    BufferHandle b = nullptr;
    const std::string errors = errors_of([&] { b = api->wgpuDeviceCreateBuffer(device.get(), &d); });
    Ref<BufferHandle> owned = own(b, api->wgpuBufferRelease);
    if (!errors.empty() || !b) fail("memory", "cannot allocate {} bytes on WEBGPU ({}): {}", bytes, description, errors);
    return owned;
  }

  // A command buffer of what record() encodes; throws tr::Error("device") where WebGPU rejects it.
  Ref<CommandBuffer> encode(const std::function<void(CommandEncoder)>& record, std::string_view what) const {
    CommandBuffer commands = nullptr;
    const std::string errors = errors_of([&] {
      const Ref<CommandEncoder> encoder = own(api->wgpuDeviceCreateCommandEncoder(device.get(), nullptr), api->wgpuCommandEncoderRelease);
      record(encoder.get());
      commands = api->wgpuCommandEncoderFinish(encoder.get(), nullptr);
    });
    Ref<CommandBuffer> owned = own(commands, api->wgpuCommandBufferRelease);
    if (!errors.empty() || !commands) fail("device", "WebGPU rejected {}: {}", what, errors);
    return owned;
  }

  void submit(const Ref<CommandBuffer>& commands) const {
    CommandBuffer c = commands.get();
    api->wgpuQueueSubmit(queue.get(), 1, &c);
  }

  // Maps a MapRead buffer and waits for it.
  void map(BufferHandle b, uint64_t bytes) const {
    Outcome& o = callbacks->make();
    api->wgpuBufferMapAsync(b, kMapModeRead, 0, bytes, {.mode = CallbackMode::AllowProcessEvents, .callback = on_map, .userdata1 = &o});
    wait(o);  // on Ctrl-C the buffer goes, and its callback comes back to the outcome kept
    const bool ok = o.ok;
    const std::string message = o.message;
    callbacks->forget(o);
    check("reading a buffer back");
    if (!ok) fail("device", "WebGPU could not map a buffer for reading: {}", message);
  }

  void wait_for_queue() const {
    Outcome& o = callbacks->make();
    api->wgpuQueueOnSubmittedWorkDone(queue.get(), {.mode = CallbackMode::AllowProcessEvents, .callback = on_work_done, .userdata1 = &o});
    wait(o);
    const bool ok = o.ok;
    const std::string message = o.message;
    callbacks->forget(o);
    check("running a kernel");
    if (!ok) fail("device", "WebGPU's queue failed: {}", message);
  }
};

// The compute pass's two timestamps and the buffers they are read back through.
struct Timing {
  Ref<QuerySet> queries;
  Ref<BufferHandle> resolved, readback;
};

class WgslProgram : public Program {
 public:
  WgslProgram(std::shared_ptr<const Gpu> gpu, std::string name, Ref<BindGroupLayout> layout, Ref<ComputePipeline> pipeline,
              std::vector<bool> writes, bool vars, bool local_ids, bool z_free)
      : gpu_(std::move(gpu)), name_(std::move(name)), layout_(std::move(layout)), pipeline_(std::move(pipeline)),
        writes_(std::move(writes)), vars_(vars), local_ids_(local_ids), z_free_(z_free) {}

  double run(const std::vector<const Buffer*>& bufs, const LaunchDims& dims, const std::vector<int32_t>& vars) override {
    const Api& api = *gpu_->api;
    if (bufs.size() != writes_.size())
      fail("device", "{} binds {} buffers, and the launch gives {}", name_, writes_.size(), bufs.size());
    // a kernel without local ids is a grid of one-thread workgroups: its WGSL says @workgroup_size(1)
    const Grid g = grid_for(launch_for(dims, vars), local_ids_, 1, {1, 1, 1});
    const uint32_t most = gpu_->limits.maxComputeWorkgroupsPerDimension;
    const std::array<int64_t, 3> groups = wgsl_dispatch(g.groups, z_free_, most);
    for (int a = 0; a < 3; a++)
      if (groups[a] > most) fail("device", "WebGPU allows {} workgroups on axis {}, the kernel needs {}", most, "xyz"[a], groups[a]);
    std::vector<BindGroupEntry> entries;
    for (size_t i = 0; i < bufs.size(); i++)
      entries.push_back({.binding = static_cast<uint32_t>(i), .buffer = static_cast<BufferHandle>(bufs[i]->mem.get())});
    // A dispatch may bind a buffer it writes only once: a read of a buffer the kernel also writes (an
    // assign in place) reads a copy made just before the pass, which holds what a read before any
    // write would see.
    struct Copy {
      BufferHandle from;
      Ref<BufferHandle> to;
      uint64_t bytes;
    };
    std::vector<Copy> copies;
    for (size_t i = 0; i < bufs.size(); i++) {
      bool written = false;
      for (size_t j = 0; j < bufs.size(); j++) written = written || (writes_[j] && bufs[j]->mem == bufs[i]->mem);
      if (writes_[i] || !written) continue;
      const uint64_t bytes = padded(bufs[i]->nbytes());
      copies.push_back({entries[i].buffer, gpu_->buffer(bytes, kBufferUsageStorage | kBufferUsageCopyDst), bytes});
      entries[i].buffer = copies.back().to.get();
    }
    if (vars_) {
      const uint64_t bytes = padded(static_cast<int64_t>(vars.size() * sizeof(int32_t)));
      if (!var_buffer_ || var_bytes_ < bytes) {
        var_buffer_ = gpu_->buffer(bytes, kBufferUsageStorage | kBufferUsageCopyDst);
        var_bytes_ = bytes;
      }
      if (!vars.empty()) api.wgpuQueueWriteBuffer(gpu_->queue.get(), var_buffer_.get(), 0, vars.data(), vars.size() * sizeof(int32_t));
      entries.push_back({.binding = static_cast<uint32_t>(bufs.size()), .buffer = var_buffer_.get()});
    }
    if (gpu_->timestamps && !timing_) timing_ = make_timing();
    const Ref<CommandBuffer> commands = gpu_->encode(
        [&](CommandEncoder encoder) {
          for (const Copy& c : copies) api.wgpuCommandEncoderCopyBufferToBuffer(encoder, c.from, 0, c.to.get(), 0, c.bytes);
          const BindGroupDescriptor d{.layout = layout_.get(), .entryCount = entries.size(), .entries = entries.data()};
          const Ref<BindGroup> group = own(api.wgpuDeviceCreateBindGroup(gpu_->device.get(), &d), api.wgpuBindGroupRelease);
          const PassTimestampWrites stamps{.querySet = timing_ ? timing_->queries.get() : nullptr,
                                           .beginningOfPassWriteIndex = 0, .endOfPassWriteIndex = 1};
          const ComputePassDescriptor pd{.timestampWrites = timing_ ? &stamps : nullptr};
          const Ref<ComputePassEncoder> pass =
              own(api.wgpuCommandEncoderBeginComputePass(encoder, &pd), api.wgpuComputePassEncoderRelease);
          api.wgpuComputePassEncoderSetPipeline(pass.get(), pipeline_.get());
          api.wgpuComputePassEncoderSetBindGroup(pass.get(), 0, group.get(), 0, nullptr);
          api.wgpuComputePassEncoderDispatchWorkgroups(pass.get(), static_cast<uint32_t>(groups[0]),
                                                       static_cast<uint32_t>(groups[1]), static_cast<uint32_t>(groups[2]));
          api.wgpuComputePassEncoderEnd(pass.get());
          if (timing_) {
            api.wgpuCommandEncoderResolveQuerySet(encoder, timing_->queries.get(), 0, 2, timing_->resolved.get(), 0);
            api.wgpuCommandEncoderCopyBufferToBuffer(encoder, timing_->resolved.get(), 0, timing_->readback.get(), 0, 16);
          }
        },
        fmt::format("the launch of {}", name_));
    const auto start = std::chrono::steady_clock::now();
    gpu_->submit(commands);
    if (!timing_) {
      gpu_->wait_for_queue();
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    try {
      gpu_->map(timing_->readback.get(), 16);
    } catch (const Error&) {
      timing_.reset();  // still mapping (Ctrl-C) or broken: the next run takes new ones
      throw;
    }
    uint64_t stamp[2] = {0, 0};
    std::memcpy(stamp, api.wgpuBufferGetConstMappedRange(timing_->readback.get(), 0, 16), sizeof stamp);
    api.wgpuBufferUnmap(timing_->readback.get());
    return stamp[1] > stamp[0] ? static_cast<double>(stamp[1] - stamp[0]) * gpu_->timestamp_ns * 1e-9 : 0.0;
  }

 private:
  std::shared_ptr<const Gpu> gpu_;
  std::string name_;
  Ref<BindGroupLayout> layout_;
  Ref<ComputePipeline> pipeline_;
  std::vector<bool> writes_;  // per binding: the kernel stores into it
  bool vars_, local_ids_, z_free_;
  Ref<BufferHandle> var_buffer_;
  uint64_t var_bytes_ = 0;
  std::unique_ptr<Timing> timing_;

  std::unique_ptr<Timing> make_timing() const {
    const Api& api = *gpu_->api;
    const QuerySetDescriptor d{.type = QueryType::Timestamp, .count = 2};
    QuerySet queries = nullptr;
    const std::string errors = gpu_->errors_of([&] { queries = api.wgpuDeviceCreateQuerySet(gpu_->device.get(), &d); });
    auto t = std::make_unique<Timing>(Timing{own(queries, api.wgpuQuerySetRelease), {}, {}});
    if (!errors.empty() || !queries) fail("device", "WebGPU could not make timestamp queries: {}", errors);
    t->resolved = gpu_->buffer(16, kBufferUsageQueryResolve | kBufferUsageCopySrc);
    t->readback = gpu_->buffer(16, kBufferUsageMapRead | kBufferUsageCopyDst);
    return t;
  }
};

class WebGpuDevice : public Device {
 public:
  explicit WebGpuDevice(int index) : name_(device_name({"WEBGPU", index})) {
    auto gpu = std::make_shared<Gpu>();
    gpu->api = Api::load();
    const Api& api = *gpu->api;
    // OpenGL, which wgpu counts as a secondary backend, is left out: it falls short of WebGPU's features
    // and limits (no f16, no timestamps inside passes)
    const InstanceEnumerateAdapterOptions options{.backends = kInstanceBackendPrimary};
    std::vector<Adapter> found;
    {
      // libwayland-client's "XDG_RUNTIME_DIR is invalid or not set" outside a desktop session says
      // nothing about WebGPU: what fails here fails with its own error
      StderrCapture wayland_notice;
      gpu->instance = own(api.wgpuCreateInstance(nullptr), api.wgpuInstanceRelease);
      if (gpu->instance) {
        found.resize(api.wgpuInstanceEnumerateAdapters(gpu->instance.get(), &options, nullptr));
        if (!found.empty()) api.wgpuInstanceEnumerateAdapters(gpu->instance.get(), &options, found.data());
      }
      wayland_notice.finish();
    }
    if (!gpu->instance) fail("device", "wgpu-native ({}) could not make an instance", api.path);
    std::vector<Ref<Adapter>> adapters;
    for (Adapter a : found) adapters.push_back(own(a, api.wgpuAdapterRelease));
    if (adapters.empty())
      fail("device", "wgpu-native found no Vulkan, Metal or DX12 adapter: install a GPU's driver, or on a machine without "
                     "one `apt-get install mesa-vulkan-drivers` for lavapipe, which runs Vulkan on the CPU");
    if (index >= static_cast<int>(adapters.size()))
      fail("device", "there is no {}: wgpu-native finds {} adapter(s), WEBGPU to WEBGPU:{}", name_, adapters.size(),
           adapters.size() - 1);
    gpu->adapter = std::move(adapters[static_cast<size_t>(index)]);
    adapters.clear();

    AdapterInfo info{};
    if (api.wgpuAdapterGetInfo(gpu->adapter.get(), &info) != Status::Success) fail("device", "wgpuAdapterGetInfo failed");
    gpu->description = fmt::format("{} ({}, {} via {}, driver {})", str(info.device), str(info.vendor), adapter_kind(info.adapterType),
                                   backend_name(info.backendType), str(info.description));
    // a fixed subgroup size is the warp; lavapipe's runs from 4 to 128 lanes, which says nothing
    const int warp = info.subgroupMinSize == info.subgroupMaxSize ? static_cast<int>(info.subgroupMinSize) : 0;
    api.wgpuAdapterInfoFreeMembers(info);
    if (api.wgpuAdapterGetLimits(gpu->adapter.get(), &gpu->limits) != Status::Success) fail("device", "wgpuAdapterGetLimits failed");
    gpu->limits.nextInChain = nullptr;

    std::vector<FeatureName> features;
    for (const FeatureName f : {FeatureName::ShaderF16, FeatureName::TimestampQuery})
      if (api.wgpuAdapterHasFeature(gpu->adapter.get(), f)) features.push_back(f);
    gpu->f16 = std::find(features.begin(), features.end(), FeatureName::ShaderF16) != features.end();
    gpu->timestamps = std::find(features.begin(), features.end(), FeatureName::TimestampQuery) != features.end();
    // the adapter's own limits, not WebGPU's defaults: more than 8 storage buffers a kernel, buffers over 128 MiB
    const DeviceDescriptor d{
        .requiredFeatureCount = features.size(),
        .requiredFeatures = features.data(),
        .requiredLimits = &gpu->limits,
        .deviceLostCallbackInfo = {.mode = CallbackMode::AllowSpontaneous, .callback = on_lost, .userdata1 = gpu->callbacks.get()},
        .uncapturedErrorCallbackInfo = {.callback = on_uncaught, .userdata1 = gpu->callbacks.get()},
    };
    Outcome& asked = gpu->callbacks->make();
    api.wgpuAdapterRequestDevice(gpu->adapter.get(), &d,
                                 {.mode = CallbackMode::AllowProcessEvents, .callback = on_device, .userdata1 = &asked});
    gpu->wait(asked);
    gpu->device = own(asked.device, api.wgpuDeviceRelease);
    if (!asked.ok) fail("device", "wgpu-native could not open {}: {}", gpu->description, asked.message);
    gpu->callbacks->forget(asked);
    gpu->queue = own(api.wgpuDeviceGetQueue(gpu->device.get()), api.wgpuQueueRelease);
    gpu->timestamp_ns = api.wgpuQueueGetTimestampPeriod(gpu->queue.get());
    // On a GPU target `cores` only reaches THREAD, which is the CPU's alone (core/opt/opt_table.cpp), and
    // `:device`'s listing; WebGPU does not say how many compute units there are: 1.
    const uint32_t groups = gpu->limits.maxComputeWorkgroupsPerDimension;
    target_ = Target{.gpu = true, .local_memory = gpu->limits.maxComputeWorkgroupStorageSize, .cores = 1,
                     .max_local = static_cast<int>(std::min<uint32_t>(gpu->limits.maxComputeInvocationsPerWorkgroup, 256)),
                     .max_threads = gpu->limits.maxComputeInvocationsPerWorkgroup,
                     .max_threads_per_axis = {gpu->limits.maxComputeWorkgroupSizeX, gpu->limits.maxComputeWorkgroupSizeY,
                                              gpu->limits.maxComputeWorkgroupSizeZ},
                     // x past its limit folds into a free z (wgsl_dispatch): a y or z that joins x frees one
                     .max_groups = {int64_t{groups} * groups, groups, groups},
                     .vector_width = 4, .vector_alu = true, .half_arithmetic = gpu->f16, .mulacc = false, .warp_size = warp};
    gpu_ = std::move(gpu);
  }

  const std::string& name() const override { return name_; }
  const std::string& backend() const override { return backend_; }
  Target target() const override { return target_; }
  std::string hardware() const override { return Device::hardware() + gpu_->description; }

  BufferRef alloc(DType dtype, int64_t size) override {
    check_alloc(size, dtype);
    const uint64_t bytes = padded(size * static_cast<int64_t>(itemsize(dtype)));
    const uint64_t most = std::min(gpu_->limits.maxBufferSize, gpu_->limits.maxStorageBufferBindingSize);
    if (bytes > most)
      fail("memory", "WebGPU on {} binds buffers of at most {} bytes to a kernel, and this one needs {}", gpu_->description, most, bytes);
    Ref<BufferHandle> b = gpu_->buffer(bytes, kBufferUsageStorage | kBufferUsageCopySrc | kBufferUsageCopyDst);
    const std::shared_ptr<const Api> api = gpu_->api;
    return std::make_shared<Buffer>(Buffer{name_, dtype, size, std::shared_ptr<void>(b.release(), [api](void* p) {
                                             api->wgpuBufferRelease(static_cast<BufferHandle>(p));
                                           })});
  }

  void copyin(const Buffer& dst, const void* src) override {
    const auto bytes = static_cast<size_t>(dst.nbytes());
    if (bytes == 0) return;
    const Api& api = *gpu_->api;
    BufferHandle b = static_cast<BufferHandle>(dst.mem.get());
    // WebGPU copies the data at the call, so src may go as soon as it returns
    const size_t whole = bytes / 4 * 4;
    if (whole > 0) api.wgpuQueueWriteBuffer(gpu_->queue.get(), b, 0, src, whole);
    if (whole < bytes) {
      std::array<std::byte, 4> last{};
      std::memcpy(last.data(), static_cast<const std::byte*>(src) + whole, bytes - whole);
      api.wgpuQueueWriteBuffer(gpu_->queue.get(), b, whole, last.data(), last.size());
    }
    gpu_->check("copying to WEBGPU");
  }

  void copyout(void* dst, const Buffer& src) override {
    const auto bytes = static_cast<size_t>(src.nbytes());
    if (bytes == 0) return;
    const Api& api = *gpu_->api;
    const uint64_t size = padded(src.nbytes());
    const Ref<BufferHandle> staging = gpu_->buffer(size, kBufferUsageMapRead | kBufferUsageCopyDst);
    const Ref<CommandBuffer> commands = gpu_->encode(
        [&](CommandEncoder encoder) {
          api.wgpuCommandEncoderCopyBufferToBuffer(encoder, static_cast<BufferHandle>(src.mem.get()), 0, staging.get(), 0, size);
        },
        "a copy from WEBGPU");
    gpu_->submit(commands);
    gpu_->map(staging.get(), size);
    std::memcpy(dst, api.wgpuBufferGetConstMappedRange(staging.get(), 0, size), bytes);
    api.wgpuBufferUnmap(staging.get());
  }

  std::unique_ptr<Program> compile(const UOpProgram& program, const std::string& source, bool& cached) override {
    cached = false;
    // WGSL stores half only with the extension, so a float16 kernel needs it even for memory
    if (!gpu_->f16 && std::any_of(program.uops.begin(), program.uops.end(), [](const UOp& u) { return u.dtype == DType::Float16; }))
      fail("compile", "{} has no shader-f16: it cannot run the float16 kernel {}", gpu_->description, program.name);
    const Api& api = *gpu_->api;
    // the bindings the renderer declares: buffer i at binding i, read_write where the kernel stores into it,
    // then the Variables' values; the layout is spelled out, for "auto" would drop a binding the WGSL leaves unused
    const std::vector<bool> writes = written_buffers(program);
    const bool vars = !program.vars.empty() ||
                      std::any_of(program.uops.begin(), program.uops.end(), [](const UOp& u) { return u.kind == UOpKind::DefineVar; });
    std::vector<BindGroupLayoutEntry> entries;
    for (size_t i = 0; i <= writes.size(); i++) {
      if (i == writes.size() && !vars) break;
      const bool stores = i < writes.size() && writes[i];
      entries.push_back({.binding = static_cast<uint32_t>(i), .visibility = kShaderStageCompute,
                         .buffer = {.type = stores ? BufferBindingType::Storage : BufferBindingType::ReadOnlyStorage}});
    }
    if (entries.size() > gpu_->limits.maxStorageBuffersPerShaderStage)
      fail("compile", "{} binds {} storage buffers, and WebGPU on {} allows {} a kernel", program.name, entries.size(),
           gpu_->description, gpu_->limits.maxStorageBuffersPerShaderStage);

    ShaderSourceWGSL wgsl{.chain = {.next = nullptr, .sType = SType::ShaderSourceWGSL}, .code = {source.data(), source.size()}};
    const ShaderModuleDescriptor md{.nextInChain = &wgsl.chain, .label = {program.name.data(), program.name.size()}};
    ShaderModule module = nullptr;
    std::string errors = gpu_->errors_of([&] { module = api.wgpuDeviceCreateShaderModule(gpu_->device.get(), &md); });
    const Ref<ShaderModule> shader = own(module, api.wgpuShaderModuleRelease);
    if (!errors.empty() || !module) fail("compile", "{}\nsource:\n{}", errors, source);

    BindGroupLayout bgl = nullptr;
    PipelineLayout pl = nullptr;
    ComputePipeline pipeline = nullptr;
    errors = gpu_->errors_of([&] {
      const BindGroupLayoutDescriptor bd{.entryCount = entries.size(), .entries = entries.data()};
      bgl = api.wgpuDeviceCreateBindGroupLayout(gpu_->device.get(), &bd);
      const PipelineLayoutDescriptor pd{.bindGroupLayoutCount = 1, .bindGroupLayouts = &bgl};
      pl = api.wgpuDeviceCreatePipelineLayout(gpu_->device.get(), &pd);
      const ComputePipelineDescriptor cd{.label = {program.name.data(), program.name.size()}, .layout = pl,
                                         .compute = {.module = module, .entryPoint = {program.name.data(), program.name.size()}}};
      pipeline = api.wgpuDeviceCreateComputePipeline(gpu_->device.get(), &cd);
    });
    Ref<BindGroupLayout> layout = own(bgl, api.wgpuBindGroupLayoutRelease);
    const Ref<PipelineLayout> pipeline_layout = own(pl, api.wgpuPipelineLayoutRelease);
    Ref<ComputePipeline> made = own(pipeline, api.wgpuComputePipelineRelease);
    if (!errors.empty() || !pipeline) fail("compile", "{}\nsource:\n{}", errors, source);
    return std::make_unique<WgslProgram>(gpu_, program.name, std::move(layout), std::move(made), writes, vars,
                                         has_local_ids(program.uops), wgsl_z_free(program));
  }

 private:
  std::string name_, backend_ = "wgsl";
  std::shared_ptr<const Gpu> gpu_;
  Target target_;
};

}  // namespace

std::unique_ptr<Device> open_webgpu(int index) { return std::make_unique<WebGpuDevice>(index); }

}  // namespace tr
