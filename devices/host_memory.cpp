#include "devices/host_memory.h"

#include <cstdlib>
#include <cstring>

#include "core/error.h"

namespace tr {

HostArgs::HostArgs(const std::vector<const Buffer*>& bufs, const std::vector<int32_t>& vars) : values(vars) {
  for (const Buffer* b : bufs) pointers.push_back(b->mem.get());
  for (int32_t& v : values) pointers.push_back(&v);
}

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
  std::shared_ptr<void> mem = BufferPool::acquire(pool_, bytes, [](size_t n) { return std::aligned_alloc(64, n); });
  if (!mem) fail("memory", "cannot allocate {} bytes on {}", bytes, name());
  return std::make_shared<Buffer>(Buffer{name(), dtype, size, std::move(mem)});
}

// An empty tensor's host data may have no storage at all, and memcpy takes no null pointer.
void HostMemoryDevice::copyin(const Buffer& dst, const void* src) {
  if (dst.nbytes() > 0) std::memcpy(dst.mem.get(), src, static_cast<size_t>(dst.nbytes()));
}

void HostMemoryDevice::copyout(void* dst, const Buffer& src) {
  if (src.nbytes() > 0) std::memcpy(dst, src.mem.get(), static_cast<size_t>(src.nbytes()));
}

}  // namespace tr
