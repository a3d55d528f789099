// CUDA and NV: kernels loaded and launched through the driver API, timed with events. CUDA's
// source is compiled by NVRTC for the device's architecture (a cubin, or PTX for the driver to
// finish when NVRTC does not know the GPU yet); NV's is the PTX renderer's, which the driver
// compiles. libcuda and libnvrtc are opened at run time.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <mutex>

#include <fmt/format.h>

#include "core/runtime/buffer_pool.h"
#include "core/runtime/device.h"
#include "core/base/error.h"
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

CUdeviceptr address(const Buffer& b) { return reinterpret_cast<CUdeviceptr>(b.mem.get()); }

// Waits for the work before an event, looking at Ctrl-C between two questions to the driver.
void wait_for_event(const Driver& d, CUevent event) {
  CUresult waited = 0;
  wait_for_gpu([&] {
    const CUresult r = d.cuEventQuery(event);
    if (r != kCudaNotReady) waited = r;
    return r != kCudaNotReady;
  });
  d.check(waited, "running the kernel");
}

double elapsed(const Driver& d, CUevent start, CUevent end) {
  float ms = 0;
  d.check(d.cuEventElapsedTime(&ms, start, end), "cuEventElapsedTime");
  return ms * 1e-3;
}

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
    LaunchArgs a = args_for(grid_of(dims, vars), bufs, vars);
    const Driver& d = *c_.api;
    const std::shared_ptr<const EventPool::Pair> events = c_.events->take();
    d.check(d.cuEventRecord(events->start, nullptr), "cuEventRecord");
    const KernelNodeParams p = a.params(fn_);
    d.check(d.cuLaunchKernel(p.func, p.grid[0], p.grid[1], p.grid[2], p.block[0], p.block[1], p.block[2], p.shared_bytes,
                             nullptr, p.params, nullptr),
            "cuLaunchKernel");
    d.check(d.cuEventRecord(events->end, nullptr), "cuEventRecord");
    return [c = c_, events] {
      c.use();
      wait_for_event(*c.api, events->end);
      return elapsed(*c.api, events->start, events->end);
    };
  }

  // What one launch passes: its grid and its arguments (the buffers' addresses, then each Variable's value).
  struct LaunchArgs {
    Grid grid;
    std::vector<CUdeviceptr> ptrs;
    std::vector<int32_t> values;
    std::vector<void*> pointers{};  // to each argument, as the driver takes them; filled by params()

    // Whether a launch with this grid, these buffers and these values passes the same (allocates nothing).
    bool same(const Grid& g, const std::vector<const Buffer*>& bufs, const std::vector<int32_t>& vars) const {
      if (!(grid == g) || values != vars || ptrs.size() != bufs.size()) return false;
      for (size_t i = 0; i < bufs.size(); i++)
        if (ptrs[i] != address(*bufs[i])) return false;
      return true;
    }
    KernelNodeParams params(CUfunction fn) {
      pointers.clear();
      for (CUdeviceptr& p : ptrs) pointers.push_back(&p);
      for (int32_t& v : values) pointers.push_back(&v);
      KernelNodeParams k;
      k.func = fn;
      for (int a = 0; a < 3; a++) {
        k.grid[a] = static_cast<unsigned>(grid.groups[a]);
        k.block[a] = static_cast<unsigned>(grid.threads[a]);
      }
      k.params = pointers.data();
      return k;
    }
  };

  Grid grid_of(const LaunchDims& dims, const std::vector<int32_t>& vars) const {
    const Grid g = grid_for(launch_for(dims, vars), local_ids_, max_threads_, max_block_);
    for (int axis = 0; axis < 3; axis++)
      if (g.groups[axis] > max_grid_[axis])
        fail("device", "CUDA allows {} blocks on axis {}, the kernel needs {}", max_grid_[axis], "xyz"[axis], g.groups[axis]);
    return g;
  }

  static LaunchArgs args_for(const Grid& g, const std::vector<const Buffer*>& bufs, const std::vector<int32_t>& vars) {
    LaunchArgs a{g, {}, vars};
    for (const Buffer* b : bufs) a.ptrs.push_back(address(*b));
    return a;
  }

  CUfunction function() const { return fn_; }

 private:
  Context c_;
  CUmodule module_;
  CUfunction fn_;
  bool local_ids_;
  int64_t max_threads_;
  std::array<int64_t, 3> max_block_, max_grid_;
};

// A replay's run of kernels as one CUDA graph, with an event record before the first kernel and after
// each: a kernel's time runs from the record after the kernel before it, so it includes the graph's
// step from one node to the next (a pair of records around each kernel cost the GPU ~2 us per kernel
// of the spirals step on an H100, 0.650 ms in kernels against 0.604 ms with records only at the ends).
// A launch updates only the kernels whose buffers, Variable values or grid differ from what the
// instance it launches last ran with. The returned tensors get new buffers from the buffer pool at
// every call while the previous call's are still held, so their addresses alternate between two from
// one call to the next (the spirals step updated one node at each launch of a single instance, H100):
// two instances, each launched with the addresses it last ran with, update nothing. Each has its own
// events, so that one can start while the other's times are still to be read.
class CudaGraph : public LaunchGraph {
 public:
  CudaGraph(Context c, std::vector<const CudaProgram*> programs) : c_(std::move(c)), programs_(std::move(programs)) {
    instances_.reserve(kInstances);
  }
  ~CudaGraph() override {
    const Driver& d = *c_.api;
    d.cuCtxSetCurrent(c_.ctx);
    for (const Instance& i : instances_) destroy(i);
  }
  CudaGraph(const CudaGraph&) = delete;
  CudaGraph& operator=(const CudaGraph&) = delete;

  std::function<std::vector<double>()> start(const std::vector<GraphLaunch>& launches) override {
    c_.use();
    const Driver& d = *c_.api;
    std::vector<Grid> grids;
    for (size_t i = 0; i < launches.size(); i++) grids.push_back(programs_[i]->grid_of(*launches[i].dims, launches[i].vars));
    const size_t at = closest(launches, grids);
    Instance& in = instances_[at];
    for (size_t i = 0; i < launches.size(); i++) {
      if (in.last[i].same(grids[i], launches[i].bufs, launches[i].vars)) continue;
      CudaProgram::LaunchArgs now = CudaProgram::args_for(grids[i], launches[i].bufs, launches[i].vars);
      const KernelNodeParams p = now.params(programs_[i]->function());
      d.check(d.cuGraphExecKernelNodeSetParams(in.exec, in.kernels[i], &p), "cuGraphExecKernelNodeSetParams");
      in.last[i] = std::move(now);
    }
    d.check(d.cuGraphLaunch(in.exec, nullptr), "cuGraphLaunch");
    in.unread = true;
    return [this, at] {
      c_.use();
      Instance& ran = instances_[at];
      wait_for_event(*c_.api, ran.events.back());
      std::vector<double> seconds;
      for (size_t i = 0; i < ran.kernels.size(); i++) seconds.push_back(elapsed(*c_.api, ran.events[i], ran.events[i + 1]));
      ran.unread = false;
      return seconds;
    };
  }

 private:
  static constexpr size_t kInstances = 2;

  struct Instance {
    CUgraph graph = nullptr;
    CUgraphExec exec = nullptr;
    std::vector<CUgraphNode> kernels;
    std::vector<CUevent> events;                // before the first kernel, then after each
    std::vector<CudaProgram::LaunchArgs> last;  // what it ran with
    bool unread = false;                        // launched, and its times not read yet
  };

  void destroy(const Instance& in) const {
    const Driver& d = *c_.api;
    if (in.exec) d.cuGraphExecDestroy(in.exec);
    if (in.graph) d.cuGraphDestroy(in.graph);
    for (CUevent e : in.events) d.cuEventDestroy(e);
  }

  Instance build(const std::vector<GraphLaunch>& launches, const std::vector<Grid>& grids) const {
    const Driver& d = *c_.api;
    Instance in;
    for (size_t i = 0; i < launches.size(); i++) in.last.push_back(CudaProgram::args_for(grids[i], launches[i].bufs, launches[i].vars));
    CUgraphNode last = nullptr;
    const auto event_node = [&] {
      CUevent e = nullptr;
      d.check(d.cuEventCreate(&e, 0), "cuEventCreate");
      in.events.push_back(e);
      CUgraphNode node = nullptr;
      d.check(d.cuGraphAddEventRecordNode(&node, in.graph, &last, last ? 1 : 0, e), "cuGraphAddEventRecordNode");
      last = node;
    };
    try {
      d.check(d.cuGraphCreate(&in.graph, 0), "cuGraphCreate");
      event_node();
      for (size_t i = 0; i < in.last.size(); i++) {
        const KernelNodeParams p = in.last[i].params(programs_[i]->function());
        CUgraphNode node = nullptr;
        d.check(d.cuGraphAddKernelNode(&node, in.graph, &last, 1, &p), "cuGraphAddKernelNode");
        in.kernels.push_back(node);
        last = node;
        event_node();
      }
      d.check(d.cuGraphInstantiateWithFlags(&in.exec, in.graph, 0), "cuGraphInstantiate");
    } catch (...) {
      // an instance that failed half-way is dropped whole: the next replay builds it again
      destroy(in);
      throw;
    }
    return in;
  }

  // The instance whose last arguments differ from these launches' in the fewest kernels, one whose
  // times are still to be read only when no other can start; a new one (as built) while there are
  // fewer than kInstances and none matches.
  size_t closest(const std::vector<GraphLaunch>& launches, const std::vector<Grid>& grids) {
    const auto differing = [&](const Instance& in) {
      size_t n = in.unread ? launches.size() + 1 : 0;
      for (size_t i = 0; i < launches.size(); i++) n += in.last[i].same(grids[i], launches[i].bufs, launches[i].vars) ? 0 : 1;
      return n;
    };
    size_t best = 0, fewest = 2 * launches.size() + 2;
    for (size_t i = 0; i < instances_.size(); i++)
      if (const size_t n = differing(instances_[i]); n < fewest) {
        best = i;
        fewest = n;
      }
    if (fewest == 0 || instances_.size() == kInstances) return best;
    instances_.push_back(build(launches, grids));
    return instances_.size() - 1;
  }

  Context c_;
  std::vector<const CudaProgram*> programs_;
  std::vector<Instance> instances_;
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
                     .max_threads = attribute(kMaxThreadsPerBlock), .max_threads_per_axis = max_block_, .max_groups = max_grid_, .vector_width = 4, .warp_size = attribute(kWarpSize),
                     .matrix_units = cuda_matrix_units(major, minor)};
  }

  const std::string& name() const override { return name_; }
  const std::string& backend() const override { return backend_; }
  Target target() const override { return target_; }
  std::string hardware() const override { return Device::hardware() + description_; }
  // "sm_90" for a cubin NVRTC makes, "compute_89" for PTX the driver compiles
  const std::string& arch() const { return arch_; }

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

  std::unique_ptr<LaunchGraph> graph(const std::vector<Program*>& programs) override {
    if (!c_.api->has_graphs()) return nullptr;
    std::vector<const CudaProgram*> ours;
    for (const Program* p : programs) ours.push_back(&dynamic_cast<const CudaProgram&>(*p));
    return std::make_unique<CudaGraph>(c_, std::move(ours));
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

std::string cuda_compile_arch() { return dynamic_cast<const CudaDevice&>(device("CUDA")).arch(); }

}  // namespace tr
