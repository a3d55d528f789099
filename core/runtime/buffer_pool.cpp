#include "core/runtime/buffer_pool.h"

namespace tr {

void* BufferPool::take(size_t bytes) {
  const std::lock_guard lock(mu_);
  const auto it = free_.find(bytes);
  if (it == free_.end()) return nullptr;
  void* p = it->second;
  free_.erase(it);
  held_ -= bytes;
  return p;
}

void BufferPool::give(size_t bytes, void* p) {
  {
    const std::lock_guard lock(mu_);
    if (held_ + bytes <= limit_) {
      free_.emplace(bytes, p);
      held_ += bytes;
      return;
    }
  }
  release_(p);
}

void BufferPool::release_all() {
  std::multimap<size_t, void*> all;
  {
    const std::lock_guard lock(mu_);
    all.swap(free_);
    held_ = 0;
  }
  for (const auto& entry : all) release_(entry.second);
}

std::shared_ptr<void> BufferPool::acquire(const std::shared_ptr<BufferPool>& pool, size_t bytes,
                                         const std::function<void*(size_t)>& allocate) {
  void* p = pool->take(bytes);
  if (!p) p = allocate(bytes);
  if (!p) {
    pool->release_all();
    p = allocate(bytes);
  }
  if (!p) return nullptr;
  return std::shared_ptr<void>(p, [pool, bytes](void* q) { pool->give(bytes, q); });
}

}  // namespace tr
