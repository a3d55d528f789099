#pragma once
// What a device offers the engine. devices/ implements these and registers them by name; core only
// sees this interface, so it compiles with no runtime library at all.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/runtime/buffer.h"
#include "core/runtime/device_name.h"
#include "core/ir/uops.h"

namespace tr {

// A launch that a device has queued and not waited for yet: calling it waits and gives the kernel's
// time in seconds.
using PendingRun = std::function<double()>;

class Program {
 public:
  virtual ~Program() = default;
  // Runs once over the given buffers, with each Variable's value (in the program's order), and returns
  // the kernel's time in seconds.
  virtual double run(const std::vector<const Buffer*>& bufs, const LaunchDims& dims, const std::vector<int32_t>& vars) = 0;
  // As run(), but a device that can stop a kernel halfway (the CPU's) stops it once it has run for
  // `limit` seconds and returns nullopt; what it wrote is then garbage. Elsewhere it runs to its end.
  virtual std::optional<double> run_within(const std::vector<const Buffer*>& bufs, const LaunchDims& dims,
                                           const std::vector<int32_t>& vars, double /*limit*/) {
    return run(bufs, dims, vars);
  }
  // Queues one launch behind the ones before it and returns at once where the device can (a @jit
  // replay's launches go back to back, with no wait between two); the default runs it here.
  virtual PendingRun start(const std::vector<const Buffer*>& bufs, const LaunchDims& dims, const std::vector<int32_t>& vars) {
    const double seconds = run(bufs, dims, vars);
    return [seconds] { return seconds; };
  }
};

// One launch of a graph, with the buffers and Variable values of this replay.
struct GraphLaunch {
  Program* program;
  std::vector<const Buffer*> bufs;
  const LaunchDims* dims;
  std::vector<int32_t> vars;
};

// Launches that their device runs as one unit (a CUDA graph; tinygrad's graph runners): made once for
// a captured sequence of programs, then run at every replay with that replay's buffers and values.
class LaunchGraph {
 public:
  virtual ~LaunchGraph() = default;
  // Queues the launches, in order, and returns at once; calling the result waits for them and gives
  // each launch's seconds. The next start may come before that call (a replay's times are read once
  // the next replay has started), and a result may never be called (the replay failed half-way).
  virtual std::function<std::vector<double>()> start(const std::vector<GraphLaunch>& launches) = 0;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const std::string& name() const = 0;
  virtual const std::string& backend() const = 0;  // the renderer whose source it runs: "c", "llvm", "opencl", "cuda"
  virtual Target target() const = 0;              // what the linearizer may use on it
  // What a kernel's speed on it depends on: its kind and target, and the GPU's name and compiler where
  // it has one. BEAM's kept choices are keyed by it.
  virtual std::string hardware() const;
  // The source it runs for a program lowered for its target: backend()'s renderer, unless the device
  // spells something its own way.
  virtual std::string render(const UOpProgram& program) const;
  virtual BufferRef alloc(DType dtype, int64_t size) = 0;
  // All of the buffer's bytes; an empty buffer copies nothing, and its host pointer may be null.
  virtual void copyin(const Buffer& dst, const void* src) = 0;
  virtual void copyout(void* dst, const Buffer& src) = 0;
  // Compiles (or finds in the on-disk cache) the source; `cached` tells which happened.
  virtual std::unique_ptr<Program> compile(const UOpProgram& program, const std::string& source, bool& cached) = 0;
  // A graph of these programs (compiled by this device), launched in this order; null where the
  // device has none, and a replay starts each launch on its own.
  virtual std::unique_ptr<LaunchGraph> graph(const std::vector<Program*>& programs);
};

// Fresh buffers of these dtypes and sizes, filled with zeros: what a kernel is timed on away from its
// own data (BEAM's candidates, :time K N).
std::vector<BufferRef> zeroed_buffers(Device& dev, const std::vector<std::pair<DType, int64_t>>& sizes);
std::vector<const Buffer*> pointers(const std::vector<BufferRef>& bufs);

struct DeviceEntry {
  std::string name;  // the kind, with no index
  // Opens instance `index` of the kind (the N of NAME:N), a device apart from the others, named
  // device_name({name, index}); throws tr::Error("device", why) when it cannot.
  std::function<std::unique_ptr<Device>(int index)> open;
  // Its kernels' cores combine the partial results of a reduce they split (THREAD of a reduce dim):
  // a long full reduce needs no second kernel there.
  bool cores_combine = false;
};

void register_device(DeviceEntry entry);
const std::vector<DeviceEntry>& registered_devices();
// Whether the named device's kind registered cores_combine (without opening it).
bool cores_combine(const std::string& name);
// Opens the device on first use and keeps it; throws tr::Error("device") with the reason if it cannot.
Device& device(const std::string& name);
// Why a device cannot open, or "" when it can (opens it to find out).
std::string device_status(const std::string& name);

}  // namespace tr
