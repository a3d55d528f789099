#pragma once
// A workgroup's threads as fibers of the calling thread, for the shims' kernels with barriers. Each
// work-item runs from its start until it calls the barrier; when every one has reached it (or returned),
// each goes on to its next. Fibers, not OS threads: a launch of 256 threads meeting at std::barrier
// spent nearly all its time in the scheduler (backend_examples_test on both shims, warm, on the 2-core
// VM: 31.7 s with OS threads, 30 of them system time; 12.1 s as fibers).
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include <ucontext.h>

namespace tr {

class FiberGroup {
 public:
  explicit FiberGroup(size_t count);
  FiberGroup(const FiberGroup&) = delete;
  FiberGroup& operator=(const FiberGroup&) = delete;

  // Runs item(0) .. item(count - 1) to their ends, switching at each barrier.
  void run(const std::function<void(size_t)>& item);
  // The barrier a kernel calls, with the group as its argument.
  static void barrier(void* group);

 private:
  struct Fiber {
    ucontext_t context{};
    std::unique_ptr<char[]> stack;
    bool done = false;
  };
  std::vector<Fiber> fibers_;
  ucontext_t scheduler_{};
  size_t current_ = 0;
  const std::function<void(size_t)>* item_ = nullptr;
  // AddressSanitizer's record of the scheduler's stack, where a fiber switches back to it
  const void* scheduler_bottom_ = nullptr;
  size_t scheduler_size_ = 0;

  static void start();
  void resume(size_t i);
  void suspend();
};

}  // namespace tr
