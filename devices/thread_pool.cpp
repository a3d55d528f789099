#include "devices/thread_pool.h"

#include "core/base/error.h"

namespace tr {

ThreadPool::ThreadPool(int workers) {
  for (int i = 0; i < workers; i++) threads_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

// A worker woken for one run must never take an item of the next one with the old function.
int ThreadPool::take(uint64_t generation) {
  std::lock_guard lock(mu_);
  return generation == generation_ && next_ < total_ ? next_++ : -1;
}

void ThreadPool::run(int n, const std::function<void(int)>& fn, bool together) {
  if (together && n > threads())
    fail("device", "{} cores of a kernel wait for each other, and this device runs {} threads", n, threads());
  if (n <= 1 || threads_.empty()) {
    for (int i = 0; i < n; i++) fn(i);
    return;
  }
  {
    std::lock_guard lock(mu_);
    fn_ = &fn;
    next_ = 0;
    total_ = n;
    finished_ = 0;
    together_ = together;
    generation_++;
  }
  wake_.notify_all();
  const uint64_t gen = generation_;
  for (int i = take(gen); i >= 0; i = together ? -1 : take(gen)) {
    fn(i);
    std::lock_guard lock(mu_);
    finished_++;
  }
  std::unique_lock lock(mu_);
  done_.wait(lock, [this] { return finished_ == total_; });
  fn_ = nullptr;
}

void ThreadPool::work() {
  uint64_t seen = 0;
  for (;;) {
    const std::function<void(int)>* fn;
    bool together;
    {
      std::unique_lock lock(mu_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      fn = fn_;
      together = together_;
    }
    for (int i = take(seen); i >= 0; i = together ? -1 : take(seen)) {
      (*fn)(i);
      std::lock_guard lock(mu_);
      if (++finished_ == total_) done_.notify_all();
    }
  }
}

}  // namespace tr
