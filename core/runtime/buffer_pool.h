#pragma once
// Freed device allocations wait here for the next buffer of the same size, as tinygrad's allocators
// keep theirs: a jitted call's replay makes its outputs anew each call, host pages touched fresh cost
// more than many kernels, and a GPU driver's free waits for the device. Shared by the device and
// every buffer's deleter, so it outlives both.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>

namespace tr {

class BufferPool {
 public:
  using Release = std::function<void(void*)>;
  BufferPool(size_t limit_bytes, Release release) : limit_(limit_bytes), release_(std::move(release)) {}
  ~BufferPool() { release_all(); }
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // An allocation of exactly `bytes` given back earlier; null when none waits.
  void* take(size_t bytes);
  // Keeps p for a later take, or releases it when the pool holds its limit already.
  void give(size_t bytes, void* p);
  // Releases everything held: before an allocation that ran out of memory tries again.
  void release_all();

  // `bytes` of memory: one waiting in the pool, else what `allocate` gives (null: out of memory, and
  // then the pool is released and `allocate` asked once more). The memory goes back to the pool when
  // the last reference to it goes. Null when `allocate` failed twice.
  static std::shared_ptr<void> acquire(const std::shared_ptr<BufferPool>& pool, size_t bytes,
                                       const std::function<void*(size_t)>& allocate);

 private:
  std::mutex mu_;
  std::multimap<size_t, void*> free_;
  size_t held_ = 0;
  const size_t limit_;
  const Release release_;
};

}  // namespace tr
