#pragma once
// A fixed set of worker threads that run one parallel-for at a time: the CPU device's THREAD dim.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tr {

class ThreadPool {
 public:
  explicit ThreadPool(int workers);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Calls fn(i) for every i in [0, n), spread over the workers and the calling thread; returns when all
  // are done. together: each i on a thread of its own, all at once, so that fn(i) may wait for the
  // others (the cores of a split reduce); n must then be at most threads().
  void run(int n, const std::function<void(int)>& fn, bool together = false);
  int threads() const { return static_cast<int>(threads_.size()) + 1; }

 private:
  void work();
  int take(uint64_t generation);

  std::vector<std::thread> threads_;
  std::mutex mu_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* fn_ = nullptr;
  int next_ = 0, total_ = 0, finished_ = 0;
  bool together_ = false;
  uint64_t generation_ = 0;
  bool stop_ = false;
};

}  // namespace tr
