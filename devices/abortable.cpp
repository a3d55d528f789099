#include "devices/abortable.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>

#include <array>
#include <atomic>
#include <mutex>

#include "core/interrupt.h"

namespace tr {
namespace {

constexpr int kAbortSignal = SIGUSR2;

thread_local sigjmp_buf* escape = nullptr;  // set while this thread is inside a kernel

// The threads inside a kernel, for the waker to signal; more threads than slots run unstoppable. A slot
// is taken (busy), filled, then published (ready), so that the waker never reads a half-written one.
constexpr size_t kSlots = 256;
std::array<std::atomic<bool>, kSlots> busy{}, ready{};
std::array<pthread_t, kSlots> threads{};

void on_abort_signal(int) {
  if (sigjmp_buf* e = escape) siglongjmp(*e, 1);
}

// This thread, when it is inside a kernel itself (the SIGINT handler runs on any thread), comes last:
// its jump leaves this loop, and every other thread must have been signalled by then.
void wake_kernels() {
  const pthread_t self = ::pthread_self();
  bool self_inside = false;
  for (size_t i = 0; i < kSlots; i++) {
    if (!ready[i].load()) continue;
    if (::pthread_equal(threads[i], self)) self_inside = true;
    else ::pthread_kill(threads[i], kAbortSignal);
  }
  if (self_inside) ::pthread_kill(self, kAbortSignal);
}

void install() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_handler = on_abort_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(kAbortSignal, &sa, nullptr);
    add_interrupt_waker(wake_kernels);
  });
}

int claim_slot() {
  for (size_t i = 0; i < kSlots; i++) {
    bool expected = false;
    if (busy[i].load() || !busy[i].compare_exchange_strong(expected, true)) continue;
    threads[i] = ::pthread_self();
    ready[i].store(true);
    return static_cast<int>(i);
  }
  return -1;
}

void release_slot(int slot) {
  escape = nullptr;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (slot < 0) return;
  ready[static_cast<size_t>(slot)].store(false);
  busy[static_cast<size_t>(slot)].store(false);
}

}  // namespace

bool run_abortable(KernelEntry entry, void** bufs, int core_id) {
  install();
  volatile int slot = -1;  // volatile: read again after the jump back
  sigjmp_buf env;
  if (sigsetjmp(env, 1) != 0) {
    release_slot(slot);
    return false;
  }
  escape = &env;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  // the slot is published before the flag is read: the waker sees this thread, or this thread the flag
  slot = claim_slot();
  if (interrupted()) {
    release_slot(slot);
    return false;
  }
  entry(bufs, core_id);
  release_slot(slot);
  return true;
}

}  // namespace tr
