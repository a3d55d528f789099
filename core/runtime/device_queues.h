#pragma once
// A command queue per device: the items of a schedule that run on one device go in schedule order on a
// thread of that device's, and an item starts once the items that made its inputs have finished, so
// that kernels and copies on different devices overlap (a sharded tensor's pieces run side by side).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace tr {

struct QueuedItem {
  std::string device;        // whose queue runs it
  std::vector<size_t> after;  // items (earlier ones) that must have finished first
};

// run(i) for every item, on its device's queue; finished(i) on the calling thread as each one ends, in
// the order they end. The first error (an interrupt included) stops every queue before its next item
// and is thrown here once all have stopped.
void run_queued(const std::vector<QueuedItem>& items, const std::function<void(size_t)>& run,
                const std::function<void(size_t)>& finished);

}  // namespace tr
