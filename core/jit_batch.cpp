#include "core/jit_batch.h"

#include <chrono>

#include "core/interrupt.h"

namespace tr {
namespace {

double copy(const Launch& l, const std::vector<const Buffer*>& bufs) {
  const auto t0 = std::chrono::steady_clock::now();
  Device& dst = device(bufs[0]->device);
  if (l.host) {
    dst.copyin(*bufs[0], l.host->bytes.data());
  } else {
    std::vector<std::byte> staging(bufs[1]->nbytes());
    device(bufs[1]->device).copyout(staging.data(), *bufs[1]);
    dst.copyin(*bufs[0], staging.data());
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::vector<double> run_batch(const JitBatch& batch, const std::vector<const Buffer*>& slot_buffers,
                              const std::vector<std::vector<int32_t>>& vars) {
  std::vector<std::vector<const Buffer*>> bound(batch.launches.size());
  for (size_t i = 0; i < bound.size(); i++)
    for (const size_t slot : batch.args[i]) bound[i].push_back(slot_buffers[slot]);
  // every kernel is queued before the first is waited for; a copy waits for the kernels before it
  std::vector<PendingRun> pending(batch.launches.size());
  for (size_t i = 0; i < bound.size(); i++) {
    // one load of a flag: Ctrl-C stops a long replay between launches
    check_interrupt();
    const Launch& l = batch.launches[i];
    if (l.program) {
      pending[i] = l.program->start(bound[i], l.record.kernel.program->dims, vars[i]);
    } else {
      const double seconds = copy(l, bound[i]);
      pending[i] = [seconds] { return seconds; };
    }
  }
  std::vector<double> seconds;
  for (const PendingRun& p : pending) seconds.push_back(p());
  return seconds;
}

}  // namespace tr
