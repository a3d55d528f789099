// OPENCL: OpenCL C built by whichever driver the ICD loader finds (PoCL on a CPU-only machine,
// the vendor's on a GPU one; a GPU is preferred), launched over the grid of devices/gpu_launch
// and timed by the queue's profiling events. Built program binaries go to the on-disk cache. A
// driver without cl_khr_fp16 runs float16 kernels spelled with half only in memory.
#include "devices/opencl.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <memory>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/render/cstyle.h"
#include "core/render/opencl.h"
#include "core/render/qcom.h"
#include "core/render/render.h"
#include "devices/disk_cache.h"
#include "devices/gpu_wait.h"
#include "devices/gpu_launch.h"
#include "devices/qcom.h"
#include "devices/stderr_capture.h"

namespace tr {

std::string cl_error(cl_int e) {
  switch (e) {
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_BINARY: return "CL_INVALID_BINARY";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no driver installed)";
    default: return fmt::format("OpenCL error {}", e);
  }
}

void cl_check(cl_int e, const char* what) {
  if (e != CL_SUCCESS) fail("device", "{} failed: {}", what, cl_error(e));
}

namespace {

std::string device_string(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  clGetDeviceInfo(d, what, 0, nullptr, &n);
  std::string s(n, '\0');
  clGetDeviceInfo(d, what, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

template <typename T>
T device_value(cl_device_id d, cl_device_info what) {
  T v{};
  clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
  return v;
}

bool uses(const UOpProgram& p, DType t) {
  for (const UOp& u : p.uops)
    if (u.dtype == t) return true;
  return false;
}

class ClProgram : public Program {
 public:
  ClProgram(cl_program program, cl_kernel kernel, cl_context context, cl_command_queue queue, bool local_ids,
            int64_t max_threads, std::array<int64_t, 3> max_per_axis, std::vector<bool> images, std::vector<bool> writes)
      : program_(program), kernel_(kernel), context_(context), queue_(queue), local_ids_(local_ids), max_threads_(max_threads),
        max_per_axis_(max_per_axis), images_(std::move(images)), writes_(std::move(writes)) {}
  ~ClProgram() override {
    clReleaseKernel(kernel_);
    clReleaseProgram(program_);
  }
  ClProgram(const ClProgram&) = delete;
  ClProgram& operator=(const ClProgram&) = delete;

  double run(const std::vector<const Buffer*>& bufs, const LaunchDims& dims, const std::vector<int32_t>& vars) override {
    const LaunchImages images(context_, queue_, bufs, images_, writes_);  // QCOM's; none for OPENCL
    for (size_t i = 0; i < bufs.size(); i++) {
      const cl_mem m = images.arg(i);
      cl_check(clSetKernelArg(kernel_, static_cast<cl_uint>(i), sizeof m, &m), "clSetKernelArg");
    }
    for (size_t i = 0; i < vars.size(); i++)
      cl_check(clSetKernelArg(kernel_, static_cast<cl_uint>(bufs.size() + i), sizeof vars[i], &vars[i]), "clSetKernelArg");
    const Grid g = grid_for(launch_for(dims, vars), local_ids_, max_threads_, max_per_axis_);
    size_t global[3], local[3];
    for (int a = 0; a < 3; a++) {
      global[a] = static_cast<size_t>(g.groups[a] * g.threads[a]);
      local[a] = static_cast<size_t>(g.threads[a]);
    }
    cl_event ev = nullptr;
    cl_check(clEnqueueNDRangeKernel(queue_, kernel_, 3, nullptr, global, local, 0, nullptr, &ev), "clEnqueueNDRangeKernel");
    // the queue runs in order: the last copy back ending means the kernel has ended too
    cl_event done = images.copy_back(ev);
    cl_int waited = clFlush(queue_);  // polling alone would not submit the kernel
    try {
      wait_for_gpu([&] {
        cl_int status = CL_COMPLETE;
        const cl_int asked = clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
        if (asked != CL_SUCCESS || status < 0) waited = asked != CL_SUCCESS ? asked : status;
        return waited != CL_SUCCESS || status == CL_COMPLETE;
      });
    } catch (const Error&) {  // Ctrl-C: the kernel runs on, without us
      clReleaseEvent(ev);
      clReleaseEvent(done);
      throw;
    }
    clReleaseEvent(done);
    cl_ulong start = 0, end = 0;
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
    clReleaseEvent(ev);
    cl_check(waited, "running the kernel");
    return static_cast<double>(end - start) * 1e-9;
  }

 private:
  cl_program program_;
  cl_kernel kernel_;
  cl_context context_;
  cl_command_queue queue_;
  bool local_ids_;
  int64_t max_threads_;
  std::array<int64_t, 3> max_per_axis_;
  std::vector<bool> images_, writes_;  // per buffer: taken as an image; stored into
};

// OPENCL:N, or with images QCOM:N (the same driver's device, float32 buffers that a kernel only reads
// or only writes in whole aligned float4s taken as images, as Qualcomm's Adreno reads them fastest).
class ClDevice : public Device {
 public:
  ClDevice(int index, bool images)
      : name_(device_name({images ? "QCOM" : "OPENCL", index})), backend_(images ? "qcom" : "opencl"), images_(images) {
    cl_uint n = 0;
    const cl_int found = clGetPlatformIDs(0, nullptr, &n);
    if (found != CL_SUCCESS || n == 0)
      fail("device", "the OpenCL ICD loader found no driver ({}; it reads /etc/OpenCL/vendors, or OCL_ICD_VENDORS)",
           found == CL_SUCCESS ? "0 platforms" : cl_error(found));
    std::vector<cl_platform_id> platforms(n);
    clGetPlatformIDs(n, platforms.data(), nullptr);
    // OPENCL:N is the N-th GPU of all platforms, else (no GPU) the N-th device of any kind
    std::vector<cl_device_id> found_devices;
    for (cl_device_type type : {cl_device_type{CL_DEVICE_TYPE_GPU}, cl_device_type{CL_DEVICE_TYPE_ALL}}) {
      for (cl_platform_id p : platforms) {
        cl_uint count = 0;
        if (clGetDeviceIDs(p, type, 0, nullptr, &count) != CL_SUCCESS || count == 0) continue;
        std::vector<cl_device_id> ids(count);
        if (clGetDeviceIDs(p, type, count, ids.data(), nullptr) == CL_SUCCESS)
          found_devices.insert(found_devices.end(), ids.begin(), ids.end());
      }
      if (!found_devices.empty()) break;
    }
    if (found_devices.empty()) fail("device", "no OpenCL device on {} platform(s)", n);
    if (index >= static_cast<int>(found_devices.size()))
      fail("device", "there is no {}: the OpenCL drivers show {} device(s), OPENCL:0 to OPENCL:{}", name_,
           found_devices.size(), found_devices.size() - 1);
    device_ = found_devices[static_cast<size_t>(index)];
    cl_int err = CL_SUCCESS;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
    cl_check(err, "clCreateContext");
    queue_ = clCreateCommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &err);
    cl_check(err, "clCreateCommandQueue");
    description_ = fmt::format("{} ({}, driver {})", device_string(device_, CL_DEVICE_NAME),
                               device_string(device_, CL_DEVICE_VERSION), device_string(device_, CL_DRIVER_VERSION));
    const std::string ext = device_string(device_, CL_DEVICE_EXTENSIONS);
    fp16_ = ext.find("cl_khr_fp16") != std::string::npos;
    fp64_ = ext.find("cl_khr_fp64") != std::string::npos;
    if (images && !device_value<cl_bool>(device_, CL_DEVICE_IMAGE_SUPPORT))
      fail("device", "{} has no image support: QCOM's kernels render only (:render qcom)", description_);
    max_threads_ = static_cast<int64_t>(std::min<size_t>(device_value<size_t>(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE), 256));
    size_t sizes[3] = {1, 1, 1};
    clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, nullptr);
    for (int a = 0; a < 3; a++) max_per_axis_[a] = static_cast<int64_t>(sizes[a]);
    // the warp is a vendor's query (cl_nv_device_attribute_query, cl_amd_device_attribute_query); 0: unknown
    constexpr cl_device_info kWarpSizeNv = 0x4003, kWavefrontWidthAmd = 0x4043;
    int warp = 0;
    if (ext.find("cl_nv_device_attribute_query") != std::string::npos)
      warp = static_cast<int>(device_value<cl_uint>(device_, kWarpSizeNv));
    else if (ext.find("cl_amd_device_attribute_query") != std::string::npos)
      warp = static_cast<int>(device_value<cl_uint>(device_, kWavefrontWidthAmd));
    target_ = Target{.gpu = true, .local_memory = static_cast<int64_t>(device_value<cl_ulong>(device_, CL_DEVICE_LOCAL_MEM_SIZE)),
                     .cores = static_cast<int>(device_value<cl_uint>(device_, CL_DEVICE_MAX_COMPUTE_UNITS)),
                     .max_local = static_cast<int>(max_threads_),
                     .max_threads = static_cast<int64_t>(device_value<size_t>(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE)),
                     .max_threads_per_axis = max_per_axis_,
                     // OpenCL's global work size has no limit per axis below size_t's
                     .max_groups = {kNoGroupLimit, kNoGroupLimit, kNoGroupLimit}, .vector_width = 4, .vector_alu = true,
                     .half_arithmetic = fp16_, .warp_size = warp,
                     .workgroup_in_parallel = (device_value<cl_device_type>(device_, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) == 0};
  }
  ~ClDevice() override {
    clReleaseCommandQueue(queue_);
    clReleaseContext(context_);
  }
  ClDevice(const ClDevice&) = delete;
  ClDevice& operator=(const ClDevice&) = delete;

  const std::string& name() const override { return name_; }
  const std::string& backend() const override { return backend_; }
  Target target() const override { return target_; }
  std::string hardware() const override { return Device::hardware() + description_; }
  // Without cl_khr_fp16 the kernel keeps half only in memory (core/render/opencl.h); its target's rules
  // already moved every op on half into float.
  std::string render(const UOpProgram& program) const override {
    const bool native_half = fp16_ || !uses(program, DType::Float16);
    return images_ ? render_qcom_for(program, native_half) : render_opencl_for(program, native_half);
  }

  BufferRef alloc(DType dtype, int64_t size) override {
    check_alloc(size, dtype);
    cl_int err = CL_SUCCESS;
    const size_t bytes = std::max<size_t>(static_cast<size_t>(size) * itemsize(dtype), 1);
    cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    if (err != CL_SUCCESS) fail("memory", "cannot allocate {} bytes on OPENCL: {}", bytes, cl_error(err));
    return std::make_shared<Buffer>(Buffer{name_, dtype, size, std::shared_ptr<void>(m, [](void* p) {
                                             clReleaseMemObject(static_cast<cl_mem>(p));
                                           })});
  }

  void copyin(const Buffer& dst, const void* src) override {
    if (dst.nbytes() == 0) return;
    cl_check(clEnqueueWriteBuffer(queue_, static_cast<cl_mem>(dst.mem.get()), CL_TRUE, 0, static_cast<size_t>(dst.nbytes()),
                               src, 0, nullptr, nullptr),
          "clEnqueueWriteBuffer");
  }

  void copyout(void* dst, const Buffer& src) override {
    if (src.nbytes() == 0) return;
    cl_check(clEnqueueReadBuffer(queue_, static_cast<cl_mem>(src.mem.get()), CL_TRUE, 0, static_cast<size_t>(src.nbytes()),
                              dst, 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
  }

  std::unique_ptr<Program> compile(const UOpProgram& program, const std::string& source, bool& cached) override {
    if (uses(program, DType::Float64) && !fp64_)
      fail("compile", "{} has no cl_khr_fp64: it cannot run the float64 kernel {}", description_, program.name);
    cl_program built = nullptr;
    const std::string path = cached_file("opencl|" + description_ + "|" + source, ".clbin", [&](const std::string& dir) {
      built = build_source(source);
      size_t size = 0;
      cl_check(clGetProgramInfo(built, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), "clGetProgramInfo");
      std::string binary(size, '\0');
      unsigned char* ptr = reinterpret_cast<unsigned char*>(binary.data());
      cl_check(clGetProgramInfo(built, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr), "clGetProgramInfo");
      std::ofstream(dir + "/kernel.clbin", std::ios::binary) << binary;
      return dir + "/kernel.clbin";
    }, cached);
    if (!built) built = build_binary(path, source);
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(built, program.name.c_str(), &err);
    if (err != CL_SUCCESS) {
      clReleaseProgram(built);
      fail("compile", "clCreateKernel({}) failed: {}", program.name, cl_error(err));
    }
    return std::make_unique<ClProgram>(built, kernel, context_, queue_, has_local_ids(program.uops), max_threads_, max_per_axis_,
                                       images_ ? image_buffers(program) : std::vector<bool>{}, written_buffers(program));
  }

 private:
  std::string name_, backend_, description_;
  bool images_;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  bool fp16_ = false, fp64_ = false;
  int64_t max_threads_ = 1;
  std::array<int64_t, 3> max_per_axis_{1, 1, 1};
  Target target_;

  // Builds; on failure throws with the driver's build log, what the driver printed (PoCL's clang ends
  // with "1 error generated." on stderr) and the source.
  cl_program build(cl_program p, const std::string& source) {
    StderrCapture printed;
    if (clBuildProgram(p, 1, &device_, "", nullptr, nullptr) == CL_SUCCESS) return p;
    size_t n = 0;
    clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
    log += printed.finish();
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    clReleaseProgram(p);
    fail("compile", "OpenCL build failed on {}:\n{}\nsource:\n{}", description_, log, source);
  }

  cl_program build_source(const std::string& source) {
    const char* text = source.c_str();
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(context_, 1, &text, nullptr, &err);
    cl_check(err, "clCreateProgramWithSource");
    return build(p, source);
  }

  // A cached binary the driver no longer takes (a driver update) is rebuilt from the source.
  cl_program build_binary(const std::string& path, const std::string& source) {
    const std::string binary = cached_bytes(path);
    const unsigned char* ptr = reinterpret_cast<const unsigned char*>(binary.data());
    const size_t size = binary.size();
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program p = clCreateProgramWithBinary(context_, 1, &device_, &size, &ptr, &status, &err);
    if (err != CL_SUCCESS || status != CL_SUCCESS) {
      if (p) clReleaseProgram(p);
      return build_source(source);
    }
    if (clBuildProgram(p, 1, &device_, "", nullptr, nullptr) != CL_SUCCESS) {
      clReleaseProgram(p);
      return build_source(source);
    }
    return p;
  }
};

}  // namespace

std::unique_ptr<Device> open_opencl_device(int index, bool images) { return std::make_unique<ClDevice>(index, images); }

std::unique_ptr<Device> open_opencl(int index) { return open_opencl_device(index, false); }

}  // namespace tr
