// The shims' work-items as fibers: a barrier lets no work-item past it before every one has reached
// it, each keeps its own stack across it, and work-items that return early do not hold the others.
#include <gtest/gtest.h>

#include <vector>

#include "devices/shims/fibers.h"

namespace tr {
namespace {

TEST(ShimFibers, NoWorkItemPassesABarrierBeforeAllHaveReachedIt) {
  constexpr size_t kItems = 64;
  FiberGroup group(kItems);
  std::vector<int> shared(kItems, -1), seen(kItems, -1);
  for (int round = 0; round < 3; round++) {
    group.run([&](size_t i) {
      shared[i] = round * 100 + static_cast<int>(i);  // a local value that must survive the switches
      const size_t neighbour = (i + 1) % kItems;
      FiberGroup::barrier(&group);
      seen[i] = shared[neighbour];
      FiberGroup::barrier(&group);
      shared[i] = -1;
    });
    for (size_t i = 0; i < kItems; i++) EXPECT_EQ(seen[i], round * 100 + static_cast<int>((i + 1) % kItems)) << i;
  }
}

TEST(ShimFibers, WorkItemsThatReturnEarlyLetTheOthersGoOn) {
  constexpr size_t kItems = 8;
  FiberGroup group(kItems);
  std::vector<size_t> passed;  // the barrier each pass was through, in the order they happened
  group.run([&](size_t i) {
    for (size_t k = 0; k < i; k++) {
      FiberGroup::barrier(&group);
      passed.push_back(k);
    }
  });
  // item i passes i barriers: 7 passes through the first, 6 through the second, ..., none through a
  // barrier before every item still running has passed the one before
  std::vector<size_t> expected;
  for (size_t k = 0; k < kItems; k++) expected.insert(expected.end(), kItems - 1 - k, k);
  EXPECT_EQ(passed, expected);
}

}  // namespace
}  // namespace tr
