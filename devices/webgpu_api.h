#pragma once
// The part of the WebGPU C API (webgpu.h, with wgpu-native's wgpu.h) that the WEBGPU device uses,
// declared here and loaded from wgpu-native at run time, so that building needs neither the library
// nor its headers. Every struct, enum value and signature mirrors, field by field, the headers that
// ship with wgpu-native 29.0.1.1 (the Python wheel wgpu==0.32.0): the C API still changes between
// releases, so the loader refuses a library of any other version rather than misread its structs.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace tr::webgpu {

// wgpuGetVersion() of the release mirrored here: 29.0.1.1, one byte a part
inline constexpr uint32_t kVersion = 0x1d000101;
inline constexpr const char* kWheel = "wgpu==0.32.0";

using Bool = uint32_t;   // WGPUBool
using Flags = uint64_t;  // WGPUFlags
inline constexpr size_t kStrlen = SIZE_MAX;                   // WGPU_STRLEN: a null-terminated string
inline constexpr uint64_t kWholeSize = UINT64_MAX;            // WGPU_WHOLE_SIZE
inline constexpr uint32_t kQuerySetIndexUndefined = UINT32_MAX;  // WGPU_QUERY_SET_INDEX_UNDEFINED

using Instance = struct InstanceImpl*;
using Adapter = struct AdapterImpl*;
using DeviceHandle = struct DeviceImpl*;  // WGPUDevice (tr::Device is the engine's)
using Queue = struct QueueImpl*;
using BufferHandle = struct BufferImpl*;  // WGPUBuffer (tr::Buffer is the engine's)
using ShaderModule = struct ShaderModuleImpl*;
using BindGroupLayout = struct BindGroupLayoutImpl*;
using BindGroup = struct BindGroupImpl*;
using PipelineLayout = struct PipelineLayoutImpl*;
using ComputePipeline = struct ComputePipelineImpl*;
using CommandEncoder = struct CommandEncoderImpl*;
using ComputePassEncoder = struct ComputePassEncoderImpl*;
using CommandBuffer = struct CommandBufferImpl*;
using QuerySet = struct QuerySetImpl*;
using Surface = struct SurfaceImpl*;
using Sampler = struct SamplerImpl*;
using TextureView = struct TextureViewImpl*;

// Enums: only the values the device names. C gives each enum the size of an int.
enum class SType : uint32_t { ShaderSourceWGSL = 0x00000002 };
enum class CallbackMode : uint32_t { WaitAnyOnly = 0x00000001, AllowProcessEvents = 0x00000002, AllowSpontaneous = 0x00000003 };
enum class FeatureName : uint32_t { TimestampQuery = 0x00000009, ShaderF16 = 0x0000000B };
enum class BackendType : uint32_t {
  Undefined = 0x00000000, Null = 0x00000001, WebGPU = 0x00000002, D3D11 = 0x00000003, D3D12 = 0x00000004,
  Metal = 0x00000005, Vulkan = 0x00000006, OpenGL = 0x00000007, OpenGLES = 0x00000008,
};
enum class AdapterType : uint32_t { DiscreteGPU = 0x00000001, IntegratedGPU = 0x00000002, CPU = 0x00000003, Unknown = 0x00000004 };
enum class BufferBindingType : uint32_t {
  BindingNotUsed = 0x00000000, Undefined = 0x00000001, Uniform = 0x00000002, Storage = 0x00000003, ReadOnlyStorage = 0x00000004,
};
enum class SamplerBindingType : uint32_t { BindingNotUsed = 0x00000000 };
enum class TextureSampleType : uint32_t { BindingNotUsed = 0x00000000 };
enum class StorageTextureAccess : uint32_t { BindingNotUsed = 0x00000000 };
enum class TextureViewDimension : uint32_t { Undefined = 0x00000000 };
enum class TextureFormat : uint32_t { Undefined = 0x00000000 };
enum class FeatureLevel : uint32_t { Undefined = 0x00000000 };
enum class ErrorFilter : uint32_t { Validation = 0x00000001, OutOfMemory = 0x00000002, Internal = 0x00000003 };
enum class ErrorType : uint32_t {
  NoError = 0x00000001, Validation = 0x00000002, OutOfMemory = 0x00000003, Internal = 0x00000004, Unknown = 0x00000005,
};
enum class PopErrorScopeStatus : uint32_t { Success = 0x00000001, CallbackCancelled = 0x00000002, Error = 0x00000003 };
enum class RequestDeviceStatus : uint32_t { Success = 0x00000001, CallbackCancelled = 0x00000002, Error = 0x00000003 };
enum class MapAsyncStatus : uint32_t { Success = 0x00000001, CallbackCancelled = 0x00000002, Error = 0x00000003, Aborted = 0x00000004 };
enum class QueueWorkDoneStatus : uint32_t { Success = 0x00000001, CallbackCancelled = 0x00000002, Error = 0x00000003 };
enum class DeviceLostReason : uint32_t {
  Unknown = 0x00000001, Destroyed = 0x00000002, CallbackCancelled = 0x00000003, FailedCreation = 0x00000004,
};
enum class QueryType : uint32_t { Occlusion = 0x00000001, Timestamp = 0x00000002 };
enum class Status : uint32_t { Success = 0x00000001, Error = 0x00000002 };

// Flags (64-bit in this version)
inline constexpr Flags kBufferUsageMapRead = 0x1, kBufferUsageCopySrc = 0x4, kBufferUsageCopyDst = 0x8,
                       kBufferUsageStorage = 0x80, kBufferUsageQueryResolve = 0x200;
inline constexpr Flags kMapModeRead = 0x1;
inline constexpr Flags kShaderStageCompute = 0x4;
// wgpu.h's WGPUInstanceBackend: the backends WebGPU is specified over (Vulkan, Metal, DX12, a browser's)
inline constexpr Flags kInstanceBackendPrimary = (1 << 0) | (1 << 2) | (1 << 3) | (1 << 5);

struct StringView {
  const char* data = nullptr;
  size_t length = kStrlen;
};

struct ChainedStruct {
  ChainedStruct* next = nullptr;
  SType sType{};
};

struct Future {
  uint64_t id = 0;
};

using BufferMapCallback = void (*)(MapAsyncStatus status, StringView message, void* userdata1, void* userdata2);
using DeviceLostCallback = void (*)(const DeviceHandle* device, DeviceLostReason reason, StringView message, void* userdata1,
                                    void* userdata2);
using PopErrorScopeCallback = void (*)(PopErrorScopeStatus status, ErrorType type, StringView message, void* userdata1,
                                       void* userdata2);
using QueueWorkDoneCallback = void (*)(QueueWorkDoneStatus status, StringView message, void* userdata1, void* userdata2);
using RequestDeviceCallback = void (*)(RequestDeviceStatus status, DeviceHandle device, StringView message, void* userdata1,
                                       void* userdata2);
using UncapturedErrorCallback = void (*)(const DeviceHandle* device, ErrorType type, StringView message, void* userdata1,
                                         void* userdata2);

// The *CallbackInfo structs of webgpu.h: one layout, the callback's type apart.
template <typename Callback>
struct CallbackInfo {
  ChainedStruct* nextInChain = nullptr;
  CallbackMode mode{};
  Callback callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};
using BufferMapCallbackInfo = CallbackInfo<BufferMapCallback>;
using DeviceLostCallbackInfo = CallbackInfo<DeviceLostCallback>;
using PopErrorScopeCallbackInfo = CallbackInfo<PopErrorScopeCallback>;
using QueueWorkDoneCallbackInfo = CallbackInfo<QueueWorkDoneCallback>;
using RequestDeviceCallbackInfo = CallbackInfo<RequestDeviceCallback>;
struct UncapturedErrorCallbackInfo {  // no mode: it may come on any thread
  ChainedStruct* nextInChain = nullptr;
  UncapturedErrorCallback callback = nullptr;
  void* userdata1 = nullptr;
  void* userdata2 = nullptr;
};

struct AdapterInfo {
  ChainedStruct* nextInChain = nullptr;
  StringView vendor{};
  StringView architecture{};
  StringView device{};
  StringView description{};
  BackendType backendType{};
  AdapterType adapterType{};
  uint32_t vendorID = 0;
  uint32_t deviceID = 0;
  uint32_t subgroupMinSize = 0;
  uint32_t subgroupMaxSize = 0;
};

struct Limits {
  ChainedStruct* nextInChain = nullptr;
  uint32_t maxTextureDimension1D = 0;
  uint32_t maxTextureDimension2D = 0;
  uint32_t maxTextureDimension3D = 0;
  uint32_t maxTextureArrayLayers = 0;
  uint32_t maxBindGroups = 0;
  uint32_t maxBindGroupsPlusVertexBuffers = 0;
  uint32_t maxBindingsPerBindGroup = 0;
  uint32_t maxDynamicUniformBuffersPerPipelineLayout = 0;
  uint32_t maxDynamicStorageBuffersPerPipelineLayout = 0;
  uint32_t maxSampledTexturesPerShaderStage = 0;
  uint32_t maxSamplersPerShaderStage = 0;
  uint32_t maxStorageBuffersPerShaderStage = 0;
  uint32_t maxStorageTexturesPerShaderStage = 0;
  uint32_t maxUniformBuffersPerShaderStage = 0;
  uint64_t maxUniformBufferBindingSize = 0;
  uint64_t maxStorageBufferBindingSize = 0;
  uint32_t minUniformBufferOffsetAlignment = 0;
  uint32_t minStorageBufferOffsetAlignment = 0;
  uint32_t maxVertexBuffers = 0;
  uint64_t maxBufferSize = 0;
  uint32_t maxVertexAttributes = 0;
  uint32_t maxVertexBufferArrayStride = 0;
  uint32_t maxInterStageShaderVariables = 0;
  uint32_t maxColorAttachments = 0;
  uint32_t maxColorAttachmentBytesPerSample = 0;
  uint32_t maxComputeWorkgroupStorageSize = 0;
  uint32_t maxComputeInvocationsPerWorkgroup = 0;
  uint32_t maxComputeWorkgroupSizeX = 0;
  uint32_t maxComputeWorkgroupSizeY = 0;
  uint32_t maxComputeWorkgroupSizeZ = 0;
  uint32_t maxComputeWorkgroupsPerDimension = 0;
  uint32_t maxImmediateSize = 0;
};

// wgpu.h
struct InstanceEnumerateAdapterOptions {
  const ChainedStruct* nextInChain = nullptr;
  Flags backends = 0;
};

struct QueueDescriptor {
  ChainedStruct* nextInChain = nullptr;
  StringView label{};
};

struct DeviceDescriptor {
  ChainedStruct* nextInChain = nullptr;
  StringView label{};
  size_t requiredFeatureCount = 0;
  const FeatureName* requiredFeatures = nullptr;
  const Limits* requiredLimits = nullptr;
  QueueDescriptor defaultQueue{};
  DeviceLostCallbackInfo deviceLostCallbackInfo{};
  UncapturedErrorCallbackInfo uncapturedErrorCallbackInfo{};
};

struct BufferDescriptor {
  ChainedStruct* nextInChain = nullptr;
  StringView label{};
  Flags usage = 0;
  uint64_t size = 0;
  Bool mappedAtCreation = 0;
};

struct ShaderSourceWGSL {
  ChainedStruct chain{};
  StringView code{};
};

struct ShaderModuleDescriptor {
  ChainedStruct* nextInChain = nullptr;
  StringView label{};
};

struct BufferBindingLayout {
  ChainedStruct* nextInChain = nullptr;
  BufferBindingType type{};
  Bool hasDynamicOffset = 0;
  uint64_t minBindingSize = 0;
};
struct SamplerBindingLayout {
  ChainedStruct* nextInChain = nullptr;
  SamplerBindingType type{};
};
struct TextureBindingLayout {
  ChainedStruct* nextInChain = nullptr;
  TextureSampleType sampleType{};
  TextureViewDimension viewDimension{};
  Bool multisampled = 0;
};
struct StorageTextureBindingLayout {
  ChainedStruct* nextInChain = nullptr;
  StorageTextureAccess access{};
  TextureFormat format{};
  TextureViewDimension viewDimension{};
};

struct BindGroupLayoutEntry {
  ChainedStruct* nextInChain = nullptr;
  uint32_t binding = 0;
  Flags visibility = 0;
  uint32_t bindingArraySize = 0;
  BufferBindingLayout buffer{};
  SamplerBindingLayout sampler{};
  TextureBindingLayout texture{};
  StorageTextureBindingLayout storageTexture{};
};

struct BindGroupLayoutDescriptor {
  ChainedStruct* nextInChain = nullptr;
  StringView label{};
  size_t entryCount = 0;
  const BindGroupLayoutEntry* entries = nullptr;
};

struct PipelineLayoutDescriptor {
  ChainedStruct* nextInChain = nullptr;
  StringView label{};
  size_t bindGroupLayoutCount = 0;
  const BindGroupLayout* bindGroupLayouts = nullptr;
  uint32_t immediateSize = 0;
};

struct ConstantEntry;  // pipeline-overridable constants: never set

struct ComputeState {
  ChainedStruct* nextInChain = nullptr;
  ShaderModule module = nullptr;
  StringView entryPoint{};
  size_t constantCount = 0;
  const ConstantEntry* constants = nullptr;
};

struct ComputePipelineDescriptor {
  ChainedStruct* nextInChain = nullptr;
  StringView label{};
  PipelineLayout layout = nullptr;
  ComputeState compute{};
};

struct BindGroupEntry {
  ChainedStruct* nextInChain = nullptr;
  uint32_t binding = 0;
  BufferHandle buffer = nullptr;
  uint64_t offset = 0;
  uint64_t size = kWholeSize;
  Sampler sampler = nullptr;
  TextureView textureView = nullptr;
};

struct BindGroupDescriptor {
  ChainedStruct* nextInChain = nullptr;
  StringView label{};
  BindGroupLayout layout = nullptr;
  size_t entryCount = 0;
  const BindGroupEntry* entries = nullptr;
};

struct PassTimestampWrites {
  ChainedStruct* nextInChain = nullptr;
  QuerySet querySet = nullptr;
  uint32_t beginningOfPassWriteIndex = kQuerySetIndexUndefined;
  uint32_t endOfPassWriteIndex = kQuerySetIndexUndefined;
};

struct ComputePassDescriptor {
  ChainedStruct* nextInChain = nullptr;
  StringView label{};
  const PassTimestampWrites* timestampWrites = nullptr;
};

struct QuerySetDescriptor {
  ChainedStruct* nextInChain = nullptr;
  StringView label{};
  QueryType type{};
  uint32_t count = 0;
};

#if defined(__LP64__)
// the sizes of the real headers' structs on a 64-bit machine
static_assert(sizeof(StringView) == 16 && sizeof(ChainedStruct) == 16 && sizeof(Future) == 8);
static_assert(sizeof(AdapterInfo) == 96 && sizeof(Limits) == 152 && sizeof(DeviceDescriptor) == 144);
static_assert(sizeof(BufferDescriptor) == 48 && sizeof(BindGroupLayoutEntry) == 120 && sizeof(BindGroupEntry) == 56);
static_assert(sizeof(ComputePipelineDescriptor) == 80 && sizeof(ComputePassDescriptor) == 32);
#endif

// The functions, by their C names. Those of wgpu.h (wgpu-native's own) are marked.
struct Api {
  uint32_t (*wgpuGetVersion)() = nullptr;  // wgpu.h
  Instance (*wgpuCreateInstance)(const void* descriptor) = nullptr;  // always null: the defaults
  void (*wgpuInstanceRelease)(Instance) = nullptr;
  void (*wgpuInstanceProcessEvents)(Instance) = nullptr;
  size_t (*wgpuInstanceEnumerateAdapters)(Instance, const InstanceEnumerateAdapterOptions*, Adapter*) = nullptr;  // wgpu.h
  Status (*wgpuAdapterGetInfo)(Adapter, AdapterInfo*) = nullptr;
  void (*wgpuAdapterInfoFreeMembers)(AdapterInfo) = nullptr;
  Status (*wgpuAdapterGetLimits)(Adapter, Limits*) = nullptr;
  Bool (*wgpuAdapterHasFeature)(Adapter, FeatureName) = nullptr;
  Future (*wgpuAdapterRequestDevice)(Adapter, const DeviceDescriptor*, RequestDeviceCallbackInfo) = nullptr;
  void (*wgpuAdapterRelease)(Adapter) = nullptr;
  void (*wgpuDeviceRelease)(DeviceHandle) = nullptr;
  Queue (*wgpuDeviceGetQueue)(DeviceHandle) = nullptr;
  Bool (*wgpuDevicePoll)(DeviceHandle, Bool wait, const uint64_t* submissionIndex) = nullptr;  // wgpu.h
  void (*wgpuDevicePushErrorScope)(DeviceHandle, ErrorFilter) = nullptr;
  Future (*wgpuDevicePopErrorScope)(DeviceHandle, PopErrorScopeCallbackInfo) = nullptr;
  BufferHandle (*wgpuDeviceCreateBuffer)(DeviceHandle, const BufferDescriptor*) = nullptr;
  ShaderModule (*wgpuDeviceCreateShaderModule)(DeviceHandle, const ShaderModuleDescriptor*) = nullptr;
  BindGroupLayout (*wgpuDeviceCreateBindGroupLayout)(DeviceHandle, const BindGroupLayoutDescriptor*) = nullptr;
  PipelineLayout (*wgpuDeviceCreatePipelineLayout)(DeviceHandle, const PipelineLayoutDescriptor*) = nullptr;
  ComputePipeline (*wgpuDeviceCreateComputePipeline)(DeviceHandle, const ComputePipelineDescriptor*) = nullptr;
  BindGroup (*wgpuDeviceCreateBindGroup)(DeviceHandle, const BindGroupDescriptor*) = nullptr;
  CommandEncoder (*wgpuDeviceCreateCommandEncoder)(DeviceHandle, const void* descriptor) = nullptr;  // always null
  QuerySet (*wgpuDeviceCreateQuerySet)(DeviceHandle, const QuerySetDescriptor*) = nullptr;
  void (*wgpuQueueRelease)(Queue) = nullptr;
  void (*wgpuQueueSubmit)(Queue, size_t, const CommandBuffer*) = nullptr;
  void (*wgpuQueueWriteBuffer)(Queue, BufferHandle, uint64_t offset, const void* data, size_t size) = nullptr;
  Future (*wgpuQueueOnSubmittedWorkDone)(Queue, QueueWorkDoneCallbackInfo) = nullptr;
  float (*wgpuQueueGetTimestampPeriod)(Queue) = nullptr;  // wgpu.h
  void (*wgpuBufferRelease)(BufferHandle) = nullptr;
  Future (*wgpuBufferMapAsync)(BufferHandle, Flags mode, size_t offset, size_t size, BufferMapCallbackInfo) = nullptr;
  const void* (*wgpuBufferGetConstMappedRange)(BufferHandle, size_t offset, size_t size) = nullptr;
  void (*wgpuBufferUnmap)(BufferHandle) = nullptr;
  void (*wgpuShaderModuleRelease)(ShaderModule) = nullptr;
  void (*wgpuBindGroupLayoutRelease)(BindGroupLayout) = nullptr;
  void (*wgpuBindGroupRelease)(BindGroup) = nullptr;
  void (*wgpuPipelineLayoutRelease)(PipelineLayout) = nullptr;
  void (*wgpuComputePipelineRelease)(ComputePipeline) = nullptr;
  void (*wgpuQuerySetRelease)(QuerySet) = nullptr;
  void (*wgpuCommandEncoderRelease)(CommandEncoder) = nullptr;
  ComputePassEncoder (*wgpuCommandEncoderBeginComputePass)(CommandEncoder, const ComputePassDescriptor*) = nullptr;
  void (*wgpuCommandEncoderCopyBufferToBuffer)(CommandEncoder, BufferHandle source, uint64_t sourceOffset,
                                               BufferHandle destination, uint64_t destinationOffset, uint64_t size) = nullptr;
  void (*wgpuCommandEncoderResolveQuerySet)(CommandEncoder, QuerySet, uint32_t firstQuery, uint32_t queryCount,
                                            BufferHandle destination, uint64_t destinationOffset) = nullptr;
  CommandBuffer (*wgpuCommandEncoderFinish)(CommandEncoder, const void* descriptor) = nullptr;  // always null
  void (*wgpuCommandBufferRelease)(CommandBuffer) = nullptr;
  void (*wgpuComputePassEncoderSetPipeline)(ComputePassEncoder, ComputePipeline) = nullptr;
  void (*wgpuComputePassEncoderSetBindGroup)(ComputePassEncoder, uint32_t groupIndex, BindGroup, size_t dynamicOffsetCount,
                                             const uint32_t* dynamicOffsets) = nullptr;
  void (*wgpuComputePassEncoderDispatchWorkgroups)(ComputePassEncoder, uint32_t x, uint32_t y, uint32_t z) = nullptr;
  void (*wgpuComputePassEncoderEnd)(ComputePassEncoder) = nullptr;
  void (*wgpuComputePassEncoderRelease)(ComputePassEncoder) = nullptr;

  std::string path;  // where the library was found

  // Loads wgpu-native from $TINYREPL_WEBGPU_LIB, else the wgpu wheel's copy found at configure time,
  // else libwgpu_native.so on the loader's path; throws tr::Error("device") saying what was tried
  // and how to install it, or that its version is not the one mirrored here.
  static std::shared_ptr<const Api> load();
};

std::string str(StringView s);
// "29.0.1.1"
std::string version_name(uint32_t version);

}  // namespace tr::webgpu
