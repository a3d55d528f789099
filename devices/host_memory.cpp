#include "devices/host_memory.h"

#include <cstdlib>
#include <cstring>

#include "core/error.h"

namespace tr {

// Up to 1 GiB of freed buffers stay for reuse (core/buffer_pool.h).
constexpr size_t kPoolLimit = size_t{1} << 30;

HostMemoryDevice::HostMemoryDevice(std::string name, std::string backend)
    : name_(std::move(name)),
      backend_(std::move(backend)),
      pool_(std::make_shared<BufferPool>(kPoolLimit, [](void* p) { std::free(p); })) {}

BufferRef HostMemoryDevice::alloc(DType dtype, int64_t size) {
  check_alloc(size, dtype);
  // 64-byte alignment keeps vector loads aligned; never zero bytes
  const size_t bytes = (static_cast<size_t>(size) * itemsize(dtype) + 63) / 64 * 64 + 64;
  void* p = pool_->take(bytes);
  if (!p) p = std::aligned_alloc(64, bytes);
  if (!p) {
    pool_->release_all();
    p = std::aligned_alloc(64, bytes);
  }
  if (!p) fail("memory", "cannot allocate {} bytes on {}", bytes, name());
  std::shared_ptr<BufferPool> pool = pool_;
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
