#pragma once
// The replay of a capture as one batch: every launch's arguments are resolved before the first runs,
// then the launches go back to back with no host work between them beyond the launch itself.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/realize.h"

namespace tr {

struct JitBatch {
  std::vector<Launch> launches;
  std::vector<std::vector<size_t>> args;  // per launch, the slot of each of its buffers
  size_t slots = 0;
};

// Runs the batch with slot i bound to slot_buffers[i] and each kernel given vars[launch] as the values
// of its Variables; returns each launch's seconds.
std::vector<double> run_batch(const JitBatch& batch, const std::vector<const Buffer*>& slot_buffers,
                              const std::vector<std::vector<int32_t>>& vars);

}  // namespace tr
