#pragma once
// The replay of a capture as one batch: every launch's arguments are resolved before the first runs,
// then the launches go back to back with no host work between them beyond the launch itself. Runs of
// consecutive kernels on a device that has graphs (CUDA) are launched as one graph.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/realize/realize.h"

namespace tr {

// launches [first, end) of a batch, run as one graph of their device
struct GraphSegment {
  size_t first = 0, end = 0;
  std::unique_ptr<LaunchGraph> graph;
};

struct JitBatch {
  std::vector<Launch> launches;
  std::vector<std::vector<size_t>> args;  // per launch, the slot of each of its buffers
  size_t slots = 0;
  std::vector<GraphSegment> graphs;       // in order, apart
};

// Finds the runs of two or more consecutive kernels on one device whose device makes a graph of them
// (none when settings().jit is 2, tinygrad's JIT=2).
std::vector<GraphSegment> plan_graphs(const std::vector<Launch>& launches);

// Starts the batch with slot i bound to slot_buffers[i] and each kernel given vars[launch] as the
// values of its Variables, and returns at once (a copy waits for the kernels before it); calling the
// result waits for the launches and gives each one's seconds. The buffers must outlive that call.
std::function<std::vector<double>()> start_batch(const JitBatch& batch, const std::vector<const Buffer*>& slot_buffers,
                                                 const std::vector<std::vector<int32_t>>& vars);

}  // namespace tr
