// CUDA and NV: kernels loaded and launched through the driver API, timed with events. CUDA's
// source is compiled by NVRTC for the device's architecture (a cubin, or PTX for the driver to
// finish when NVRTC does not know the GPU yet); NV's is the PTX renderer's, which the driver
// compiles. libcuda and libnvrtc are opened at run time.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <mutex>

#include <fmt/format.h>

#include "core/buffer_pool.h"
#include "core/device.h"
#include "core/error.h"
#include "core/render/render.h"
#include "devices/cuda_device.h"
#include "devices/disk_cache.h"
#include "devices/gpu_wait.h"
#include "devices/gpu_launch.h"
#include "devices/nvrtc.h"

namespace tr {
namespace {

using namespace cuda;

// Device memory kept for reuse at most; an allocation that fails releases it all and tries again.
constexpr size_t kPoolLimit = size_t{1} << 30;

// The two events that time one launch. A replay queues many launches before it waits for the first,
// so each launch takes a pair from the pool and gives it back once its time has been read.
class EventPool : public std::enable_shared_from_this<EventPool> {
 public:
  struct Pair {
    Pair(std::shared_ptr<EventPool> from, CUevent s, CUevent e) : pool(std::move(from)), start(s), end(e) {}
    ~Pair() { pool->give_back(start, end); }
    Pair(const Pair&) = delete;
    Pair& operator=(const Pair&) = delete;
    std::shared_ptr<EventPool> pool;
    CUevent start, end;
  };

  EventPool(std::shared_ptr<const Driver> api, CUcontext ctx) : api_(std::move(api)), ctx_(ctx) {}
  ~EventPool() {
    api_->cuCtxSetCurrent(ctx_);
    for (CUevent e : all_) api_->cuEventDestroy(e);
  }
  EventPool(const EventPool&) = delete;
  EventPool& operator=(const EventPool&) = delete;

  // With the context current.
  std::shared_ptr<const Pair> take() {
    const std::lock_guard lock(mutex_);
    if (free_.size() < 2) {
      for (int i = 0; i < 2; i++) {
        CUevent e = nullptr;
        api_->check(api_->cuEventCreate(&e, 0), "cuEventCreate");
        all_.push_back(e);
        free_.push_back(e);
      }
    }
    auto pair = std::make_shared<Pair>(shared_from_this(), free_[free_.size() - 2], free_.back());
    free_.resize(free_.size() - 2);
    return pair;
  }

 private:
  void give_back(CUevent start, CUevent end) {
    const std::lock_guard lock(mutex_);
    free_.push_back(start);
    free_.push_back(end);
  }

  std::shared_ptr<const Driver> api_;
  CUcontext ctx_;
  std::mutex mutex_;
  std::vector<CUevent> all_, free_;
};

struct Context {
  std::shared_ptr<const Driver> api;
  CUcontext ctx = nullptr;
  std::shared_ptr<EventPool> events;
  // Every call comes from whichever thread asks; each makes the context current first.
  void use() const { api->check(api->cuCtxSetCurrent(ctx), "cuCtxSetCurrent"); }
};

class CudaProgram : public Program {
 public:
  CudaProgram(Context c, CUmodule module, CUfunction fn, bool local_ids, int64_t max_threads,
              std::array<int64_t, 3> max_block, std::array<int64_t, 3> max_grid)
      : c_(std::move(c)), module_(module), fn_(fn), local_ids_(local_ids), max_threads_(max_threads),
        max_block_(max_block), max_grid_(max_grid) {}
  ~CudaProgram() override {
    c_.api->cuCtxSetCurrent(c_.ctx);
    c_.api->cuModuleUnload(module_);
  }
  CudaProgram(const CudaProgram&) = delete;
  CudaProgram& operator=(const CudaProgram&) = delete;

  double run(const std::vector<const Buffer*>& bufs, const LaunchDims& dims, const std::vector<int32_t>& vars) override {
    return start(bufs, dims, vars)();
  }

  PendingRun start(const std::vector<const Buffer*>& bufs, const LaunchDims& dims, const std::vector<int32_t>& vars) override {
    c_.use();
    std::vector<CUdeviceptr> ptrs;
    for (const Buffer* b : bufs) ptrs.push_back(reinterpret_cast<CUdeviceptr>(b->mem.get()));
    std::vector<void*> args;
    for (CUdeviceptr& p : ptrs) args.push_back(&p);
    std::vector<int32_t> values = vars;
    for (int32_t& v : values) args.push_back(&v);
    const Grid g = grid_for(launch_for(dims, vars), local_ids_, max_threads_, max_block_);
    for (int a = 0; a < 3; a++)
      if (g.groups[a] > max_grid_[a])
        fail("device", "CUDA allows {} blocks on axis {}, the kernel needs {}", max_grid_[a], "xyz"[a], g.groups[a]);
    const Driver& d = *c_.api;
    const std::shared_ptr<const EventPool::Pair> events = c_.events->take();
    d.check(d.cuEventRecord(events->start, nullptr), "cuEventRecord");
    d.check(d.cuLaunchKernel(fn_, static_cast<unsigned>(g.groups[0]), static_cast<unsigned>(g.groups[1]),
                             static_cast<unsigned>(g.groups[2]), static_cast<unsigned>(g.threads[0]),
                             static_cast<unsigned>(g.threads[1]), static_cast<unsigned>(g.threads[2]), 0, nullptr,
                             args.data(), nullptr),
            "cuLaunchKernel");
    d.check(d.cuEventRecord(events->end, nullptr), "cuEventRecord");
    return [c = c_, events] {
      c.use();
      const Driver& api = *c.api;
      CUresult waited = 0;
      wait_for_gpu([&] {
        const CUresult r = api.cuEventQuery(events->end);
        if (r != kCudaNotReady) waited = r;
        return r != kCudaNotReady;
      });
      api.check(waited, "running the kernel");
      float ms = 0;
      api.check(api.cuEventElapsedTime(&ms, events->start, events->end), "cuEventElapsedTime");
      return ms * 1e-3;
    };
  }

 private:
  Context c_;
  CUmodule module_;
  CUfunction fn_;
  bool local_ids_;
  int64_t max_threads_;
  std::array<int64_t, 3> max_block_, max_grid_;
};

class CudaDevice : public Device {
 public:
  CudaDevice(CudaCode code, int index) : code_(code) {
    const std::string kind = code == CudaCode::Nvrtc ? "CUDA" : "NV";
    name_ = device_name({kind, index});
    c_.api = Driver::load();
    const Driver& d = *c_.api;
    d.check(d.cuInit(0), "cuInit");
    int count = 0;
    d.check(d.cuDeviceGetCount(&count), "cuDeviceGetCount");
    if (count == 0) fail("device", "the NVIDIA driver sees no CUDA device");
    if (index >= count)
      fail("device", "there is no {}: the NVIDIA driver sees {} GPU(s), {}:0 to {}:{}", name_, count, kind, kind, count - 1);
    d.check(d.cuDeviceGet(&dev_, index), "cuDeviceGet");
    char name[256] = {};
    d.check(d.cuDeviceGetName(name, sizeof name, dev_), "cuDeviceGetName");
    const int major = attribute(kComputeCapabilityMajor), minor = attribute(kComputeCapabilityMinor);
    if (code_ == CudaCode::Nvrtc) {
      const Nvrtc& nvrtc = Nvrtc::get();
      arch_ = pick_arch(major * 10 + minor, nvrtc.supported_archs());
      description_ = fmt::format("{} (sm_{}{}), NVRTC {} for {}", name, major, minor, nvrtc.version(), arch_);
    } else {
      int version = 0;
      d.check(d.cuDriverGetVersion(&version), "cuDriverGetVersion");
      backend_ = "ptx";
      arch_ = fmt::format("sm_{}{}", major, minor);
      description_ = fmt::format("{} ({}), PTX compiled by the CUDA {}.{} driver", name, arch_, version / 1000, version % 1000 / 10);
    }
    d.check(d.cuDevicePrimaryCtxRetain(&c_.ctx, dev_), "cuDevicePrimaryCtxRetain");
    c_.events = std::make_shared<EventPool>(c_.api, c_.ctx);
    pool_ = std::make_shared<BufferPool>(kPoolLimit, [c = c_](void* q) {
      c.api->cuCtxSetCurrent(c.ctx);
      c.api->cuMemFree(reinterpret_cast<CUdeviceptr>(q));
    });
    c_.use();
    max_threads_ = std::min(attribute(kMaxThreadsPerBlock), 256);
    max_block_ = {attribute(kMaxBlockDimX), attribute(kMaxBlockDimY), attribute(kMaxBlockDimZ)};
    max_grid_ = {attribute(kMaxGridDimX), attribute(kMaxGridDimY), attribute(kMaxGridDimZ)};
    // vectors of 4: the CUDA renderer moves them whole where their index is aligned
    target_ = Target{.gpu = true, .local_memory = attribute(kMaxSharedMemoryPerBlock),
                     .cores = attribute(kMultiprocessorCount), .max_local = static_cast<int>(max_threads_),
                     .vector_width = 4, .warp_size = attribute(kWarpSize),
                     .matrix_units = cuda_matrix_units(major, minor)};
  }

  const std::string& name() const override { return name_; }
  const std::string& backend() const override { return backend_; }
  Target target() const override { return target_; }

  BufferRef alloc(DType dtype, int64_t size) override {
    check_alloc(size, dtype);
    c_.use();
    const size_t bytes = std::max<size_t>(static_cast<size_t>(size) * itemsize(dtype), 1);
    CUresult r = 0;
    std::shared_ptr<void> mem = BufferPool::acquire(pool_, bytes, [&](size_t n) -> void* {
      CUdeviceptr p = 0;
      r = c_.api->cuMemAlloc(&p, n);
      return r == 0 ? reinterpret_cast<void*>(p) : nullptr;
    });
    if (!mem) fail("memory", "cannot allocate {} bytes on CUDA: {}", bytes, c_.api->error(r));
    return std::make_shared<Buffer>(Buffer{name_, dtype, size, std::move(mem)});
  }

  void copyin(const Buffer& dst, const void* src) override {
    if (dst.nbytes() == 0) return;
    c_.use();
    c_.api->check(c_.api->cuMemcpyHtoD(reinterpret_cast<CUdeviceptr>(dst.mem.get()), src, static_cast<size_t>(dst.nbytes())),
                  "cuMemcpyHtoD");
  }

  void copyout(void* dst, const Buffer& src) override {
    if (src.nbytes() == 0) return;
    c_.use();
    c_.api->check(c_.api->cuMemcpyDtoH(dst, reinterpret_cast<CUdeviceptr>(src.mem.get()), static_cast<size_t>(src.nbytes())),
                  "cuMemcpyDtoH");
  }

  std::unique_ptr<Program> compile(const UOpProgram& program, const std::string& source, bool& cached) override {
    if (code_ == CudaCode::Ptx) {
      cached = false;
      c_.use();
      return program_of(program, load_ptx(*c_.api, source, program.name));
    }
    const std::string path = cached_file("cuda|" + description_ + "|" + source, ".cuda", [&](const std::string& dir) {
      std::ofstream(dir + "/kernel.bin", std::ios::binary) << Nvrtc::get().compile(source, arch_);
      return dir + "/kernel.bin";
    }, cached);
    const std::string image = cached_bytes(path);
    c_.use();
    const Driver& d = *c_.api;
    CUmodule module = nullptr;
    d.check(d.cuModuleLoadData(&module, image.data()), fmt::format("loading the {} of {}", arch_, program.name));
    return program_of(program, module);
  }

 private:
  CudaCode code_;
  std::string name_, backend_ = "cuda", description_, arch_;
  Context c_;
  std::shared_ptr<BufferPool> pool_;  // freed buffers for reuse: cuMemFree waits for the device
  CUdevice dev_ = 0;
  int64_t max_threads_ = 1;
  std::array<int64_t, 3> max_block_{1, 1, 1}, max_grid_{1, 1, 1};
  Target target_;

  std::unique_ptr<Program> program_of(const UOpProgram& program, CUmodule module) {
    const Driver& d = *c_.api;
    CUfunction fn = nullptr;
    if (const CUresult r = d.cuModuleGetFunction(&fn, module, program.name.c_str()); r != 0) {
      d.cuModuleUnload(module);
      fail("compile", "the module has no kernel {}: {}", program.name, d.error(r));
    }
    return std::make_unique<CudaProgram>(c_, module, fn, has_local_ids(program.uops), max_threads_, max_block_, max_grid_);
  }

  int attribute(int which) const {
    int v = 0;
    c_.api->check(c_.api->cuDeviceGetAttribute(&v, which, dev_), "cuDeviceGetAttribute");
    return v;
  }

  // A cubin for the GPU's own architecture when NVRTC knows it; else PTX for the newest one it
  // knows below it, which the driver compiles for the GPU.
  static std::string pick_arch(int cc, const std::vector<int>& known) {
    if (std::find(known.begin(), known.end(), cc) != known.end()) return fmt::format("sm_{}", cc);
    int best = 0;
    for (int a : known)
      if (a <= cc) best = std::max(best, a);
    if (best == 0) fail("device", "NVRTC cannot compile for sm_{} or any older architecture", cc);
    return fmt::format("compute_{}", best);
  }
};

}  // namespace

std::unique_ptr<Device> open_cuda_device(CudaCode code, int index) { return std::make_unique<CudaDevice>(code, index); }

std::unique_ptr<Device> open_cuda(int index) { return open_cuda_device(CudaCode::Nvrtc, index); }

}  // namespace tr
