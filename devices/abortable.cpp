#include "devices/abortable.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "core/base/interrupt.h"

namespace tr {
namespace {

constexpr int kAbortSignal = SIGUSR2;

thread_local sigjmp_buf* escape = nullptr;             // set while this thread is inside a kernel
thread_local std::atomic<bool>* running_under = nullptr;  // the stop of the run it is inside

// The threads inside a kernel, for the wakers to signal; more threads than slots run unstoppable. A
// slot is taken (busy), filled, then published (ready), so that a waker never reads a half-written one.
// A waker may still signal a thread that has left the kernel and entered another: the handler jumps
// only when the interrupt or its own run's stop is set, so such a signal changes nothing.
constexpr size_t kSlots = 256;
std::array<std::atomic<bool>, kSlots> busy{}, ready{};
std::array<pthread_t, kSlots> threads{};
std::array<std::atomic<bool>*, kSlots> stops{};

void on_abort_signal(int) {
  sigjmp_buf* const e = escape;
  std::atomic<bool>* const stop = running_under;
  if (e && (interrupted() || (stop && stop->load()))) siglongjmp(*e, 1);
}

// Signals the threads inside a kernel that `which` selects. This thread, when it is inside one itself
// (the SIGINT handler runs on any thread), comes last: its jump leaves this loop, and every other
// thread must have been signalled by then.
template <typename Which>
void signal_kernels(Which which) {
  const pthread_t self = ::pthread_self();
  bool self_inside = false;
  for (size_t i = 0; i < kSlots; i++) {
    if (!ready[i].load() || !which(i)) continue;
    if (::pthread_equal(threads[i], self)) self_inside = true;
    else ::pthread_kill(threads[i], kAbortSignal);
  }
  if (self_inside) ::pthread_kill(self, kAbortSignal);
}

void wake_kernels() {
  signal_kernels([](size_t) { return true; });
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

int claim_slot(std::atomic<bool>& stop) {
  for (size_t i = 0; i < kSlots; i++) {
    bool expected = false;
    if (busy[i].load() || !busy[i].compare_exchange_strong(expected, true)) continue;
    threads[i] = ::pthread_self();
    stops[i] = &stop;
    ready[i].store(true);
    return static_cast<int>(i);
  }
  return -1;
}

void release_slot(int slot) {
  escape = nullptr;
  running_under = nullptr;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (slot < 0) return;
  ready[static_cast<size_t>(slot)].store(false);
  busy[static_cast<size_t>(slot)].store(false);
}

// One thread that stops the runs that outlast their limits, started with the first limit.
class Watchdog {
 public:
  using Clock = std::chrono::steady_clock;
  static Watchdog& get() {
    static Watchdog w;
    return w;
  }
  void arm(std::atomic<bool>& stop, Clock::time_point at) {
    {
      const std::lock_guard lock(mu_);
      armed_.push_back({at, &stop});
    }
    changed_.notify_one();
  }
  void disarm(const std::atomic<bool>& stop) {
    const std::lock_guard lock(mu_);
    std::erase_if(armed_, [&](const Limit& l) { return l.stop == &stop; });
  }
  ~Watchdog() {
    {
      const std::lock_guard lock(mu_);
      quit_ = true;
    }
    changed_.notify_one();
    thread_.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

 private:
  struct Limit {
    Clock::time_point at;
    std::atomic<bool>* stop;
  };
  Watchdog() : thread_([this] { watch(); }) {}

  void watch() {
    std::unique_lock lock(mu_);
    while (!quit_) {
      const auto first = std::min_element(armed_.begin(), armed_.end(), [](const Limit& a, const Limit& b) { return a.at < b.at; });
      if (first == armed_.end()) {
        changed_.wait(lock);
      } else if (Clock::now() < first->at) {
        changed_.wait_until(lock, first->at);
      } else {
        std::atomic<bool>* const stop = first->stop;
        armed_.erase(first);
        stop->store(true);
        signal_kernels([stop](size_t i) { return stops[i] == stop; });
      }
    }
  }

  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<Limit> armed_;
  bool quit_ = false;
  std::thread thread_;  // last: it starts once the rest is made
};

}  // namespace

bool run_abortable(KernelEntry entry, void** bufs, int core_id, std::atomic<bool>& stop) {
  install();
  volatile int slot = -1;  // volatile: read again after the jump back
  sigjmp_buf env;
  if (sigsetjmp(env, 1) != 0) {
    release_slot(slot);
    return false;
  }
  escape = &env;
  running_under = &stop;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  // the slot is published before the flags are read: a waker sees this thread, or this thread the flag
  slot = claim_slot(stop);
  if (interrupted() || stop.load()) {
    release_slot(slot);
    return false;
  }
  entry(bufs, core_id);
  release_slot(slot);
  return true;
}

StopAfter::StopAfter(std::atomic<bool>& stop, double seconds) {
  if (!std::isfinite(seconds)) return;
  install();
  stop_ = &stop;
  Watchdog::get().arm(stop, Watchdog::Clock::now() + std::chrono::duration_cast<Watchdog::Clock::duration>(
                                                         std::chrono::duration<double>(seconds)));
}

StopAfter::~StopAfter() {
  if (stop_) Watchdog::get().disarm(*stop_);
}

}  // namespace tr
