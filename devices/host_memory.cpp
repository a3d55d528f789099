#include "devices/host_memory.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "core/error.h"

namespace tr {

// Freed allocations wait here to be reused by the next buffer of the same size: touching fresh
// pages costs more than many kernels, and repeated realizes of one shape are the common case.
struct HostMemoryDevice::Pool {
  std::mutex mu;
  std::multimap<size_t, void*> free;
  size_t held = 0;
  static constexpr size_t kLimit = size_t{1} << 30;

  ~Pool() {
    for (auto& [bytes, p] : free) std::free(p);
  }
  void* take(size_t bytes) {
    std::lock_guard lock(mu);
    const auto it = free.find(bytes);
    if (it == free.end()) return nullptr;
    void* p = it->second;
    free.erase(it);
    held -= bytes;
    return p;
  }
  void give(size_t bytes, void* p) {
    std::lock_guard lock(mu);
    if (held + bytes > kLimit) {
      std::free(p);
      return;
    }
    free.emplace(bytes, p);
    held += bytes;
  }
};

HostMemoryDevice::HostMemoryDevice(std::string name, std::string backend)
    : name_(std::move(name)), backend_(std::move(backend)), pool_(std::make_shared<Pool>()) {}

BufferRef HostMemoryDevice::alloc(DType dtype, int64_t size) {
  check_alloc(size, dtype);
  // 64-byte alignment keeps vector loads aligned; never zero bytes
  const size_t bytes = (static_cast<size_t>(size) * itemsize(dtype) + 63) / 64 * 64 + 64;
  void* p = pool_->take(bytes);
  if (!p) p = std::aligned_alloc(64, bytes);
  if (!p) fail("memory", "cannot allocate {} bytes on {}", bytes, name());
  std::shared_ptr<Pool> pool = pool_;
  return std::make_shared<Buffer>(Buffer{name(), dtype, size, std::shared_ptr<void>(p, [pool, bytes](void* q) {
                                           pool->give(bytes, q);
                                         })});
}

// An empty tensor's host data may have no storage at all, and memcpy takes no null pointer.
void HostMemoryDevice::copyin(const Buffer& dst, const void* src) {
  if (dst.nbytes() > 0) std::memcpy(dst.mem.get(), src, static_cast<size_t>(dst.nbytes()));
}

void HostMemoryDevice::copyout(void* dst, const Buffer& src) {
  if (src.nbytes() > 0) std::memcpy(dst, src.mem.get(), static_cast<size_t>(src.nbytes()));
}

}  // namespace tr
