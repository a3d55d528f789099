#include "devices/shims/fibers.h"

#include "core/base/sanitizer.h"
#if defined(TINYREPL_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif

namespace tr {
namespace {

// A kernel's registers and arrays take a few KiB, the barrier's frames under the sanitizers a few more;
// pages a fiber never touches cost nothing.
constexpr size_t kStackBytes = size_t{256} << 10;

// makecontext passes a fiber's function no pointer (only ints): it finds its group here
thread_local FiberGroup* running = nullptr;

// AddressSanitizer is told of each switch of stacks: it checks accesses against the bounds of the stack
// in use and keeps a fake stack per fiber. A null `fake` leaves a fiber for good (start) or enters one
// for the first time (finish).
void start_switch([[maybe_unused]] void** fake, [[maybe_unused]] const void* bottom, [[maybe_unused]] size_t size) {
#if defined(TINYREPL_ASAN)
  __sanitizer_start_switch_fiber(fake, bottom, size);
#endif
}
void finish_switch([[maybe_unused]] void* fake, [[maybe_unused]] const void** bottom, [[maybe_unused]] size_t* size) {
#if defined(TINYREPL_ASAN)
  __sanitizer_finish_switch_fiber(fake, bottom, size);
#endif
}

}  // namespace

FiberGroup::FiberGroup(size_t count) : fibers_(count) {
  for (Fiber& f : fibers_) f.stack = std::make_unique_for_overwrite<char[]>(kStackBytes);
}

void FiberGroup::run(const std::function<void(size_t)>& item) {
  item_ = &item;
  running = this;
  for (Fiber& f : fibers_) {
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f.stack.get();
    f.context.uc_stack.ss_size = kStackBytes;
    f.context.uc_link = &scheduler_;  // where a fiber goes when its item returns
    makecontext(&f.context, &FiberGroup::start, 0);
    f.done = false;
  }
  // round after round, each fiber that has not returned runs to its next barrier: none passes a
  // barrier before all have reached it
  for (size_t left = fibers_.size(); left > 0;)
    for (size_t i = 0; i < fibers_.size(); i++)
      if (!fibers_[i].done) {
        resume(i);
        if (fibers_[i].done) left--;
      }
}

void FiberGroup::barrier(void* group) { static_cast<FiberGroup*>(group)->suspend(); }

void FiberGroup::start() {
  FiberGroup* const g = running;
  finish_switch(nullptr, &g->scheduler_bottom_, &g->scheduler_size_);
  (*g->item_)(g->current_);
  g->fibers_[g->current_].done = true;
  start_switch(nullptr, g->scheduler_bottom_, g->scheduler_size_);
}

void FiberGroup::resume(size_t i) {
  current_ = i;
  void* fake = nullptr;
  start_switch(&fake, fibers_[i].stack.get(), kStackBytes);
  swapcontext(&scheduler_, &fibers_[i].context);
  finish_switch(fake, nullptr, nullptr);
}

void FiberGroup::suspend() {
  void* fake = nullptr;
  start_switch(&fake, scheduler_bottom_, scheduler_size_);
  swapcontext(&fibers_[current_].context, &scheduler_);
  finish_switch(fake, &scheduler_bottom_, &scheduler_size_);
}

}  // namespace tr
