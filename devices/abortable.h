#pragma once
// Runs compiled kernel code on the calling thread so that it can be left halfway: by Ctrl-C, or by a
// time limit on the run it belongs to. A kernel only computes (loads, stores, arithmetic, libm),
// holding no lock and owning no memory, so a signal handler may jump out of it: request_interrupt()
// signals every thread inside one, a run's limit the threads of that run, and each jumps back here.
// What the kernel wrote is then garbage: the realize that ran it throws, and BEAM, which limits its
// candidates' runs, runs them on scratch buffers.
#include <atomic>

namespace tr {

using KernelEntry = void (*)(void** bufs, int core_id);

// False when an interrupt or `stop` stopped the kernel (or came before it started). Every thread of
// one run (one launch over the cores) passes the same `stop`.
bool run_abortable(KernelEntry entry, void** bufs, int core_id, std::atomic<bool>& stop);

// While it lives, a run that outlasts `seconds` is stopped: `stop` is set and the threads running
// under it leave their kernels. Infinite seconds: nothing is watched.
class StopAfter {
 public:
  StopAfter(std::atomic<bool>& stop, double seconds);
  ~StopAfter();
  StopAfter(const StopAfter&) = delete;
  StopAfter& operator=(const StopAfter&) = delete;

 private:
  std::atomic<bool>* stop_ = nullptr;  // null where nothing is watched
};

}  // namespace tr
