#include "devices/gpu_wait.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/interrupt.h"

namespace tr {
namespace {

// The first polls only yield, so that a kernel of microseconds costs no sleep; then the pause doubles
// up to a millisecond, which bounds what the wait adds to a long kernel's wall time (its time itself
// comes from the driver's events) and what Ctrl-C waits for.
constexpr int kYields = 64;
constexpr auto kFirstSleep = std::chrono::microseconds(20), kLongestSleep = std::chrono::microseconds(1000);

}  // namespace

void wait_for_gpu(const std::function<bool()>& done) {
  auto pause = kFirstSleep;
  for (int polls = 0; !done(); polls++) {
    check_interrupt();
    if (polls < kYields) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, kLongestSleep);
  }
}

}  // namespace tr
