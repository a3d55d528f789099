#include "devices/gpu_wait.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/base/interrupt.h"

namespace tr {
namespace {

using Clock = std::chrono::steady_clock;

// For its first 2 ms a wait only yields between polls, so that it ends within a poll of the work's end:
// a sleep that doubled from 20 us overshot a @jit replay's 0.7 ms graph by 0.3 ms in the median (H100).
// Past that, each pause is an eighth of the time waited so far, up to a millisecond: what the wait adds
// to a long kernel's wall time stays under an eighth (its time itself comes from the driver's events),
// and Ctrl-C is seen within a millisecond.
constexpr auto kSpin = std::chrono::microseconds(2000), kLongestSleep = std::chrono::microseconds(1000);

}  // namespace

void wait_for_gpu(const std::function<bool()>& done) {
  const Clock::time_point start = Clock::now();
  while (!done()) {
    check_interrupt();
    const Clock::duration waited = Clock::now() - start;
    if (waited < kSpin) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(std::min<Clock::duration>(waited / 8, kLongestSleep));
  }
}

}  // namespace tr
