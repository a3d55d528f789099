#include "devices/host_memory.h"

#include <cstdlib>
#include <cstring>

#include <sys/mman.h>

#include "core/base/error.h"

namespace tr {

HostArgs::HostArgs(const std::vector<const Buffer*>& bufs, const std::vector<int32_t>& vars) : values(vars) {
  for (const Buffer* b : bufs) pointers.push_back(b->mem.get());
  for (int32_t& v : values) pointers.push_back(&v);
}

// Up to 1 GiB of freed buffers stay for reuse (core/runtime/buffer_pool.h).
constexpr size_t kPoolLimit = size_t{1} << 30;

HostMemoryDevice::HostMemoryDevice(std::string name, std::string backend)
    : name_(std::move(name)),
      backend_(std::move(backend)),
      pool_(std::make_shared<BufferPool>(kPoolLimit, [](void* p) { std::free(p); })) {}

namespace {

// A buffer of 2 MiB or more lies in huge pages where the kernel allows them (transparent huge pages
// set to `madvise`, Debian's default): a kernel that walks down columns (a transpose, a column sum)
// touches one page per row, and with 4 KiB pages a 4096-row walk misses the TLB at every row (the
// 4096x4096 transpose on the 2-core AVX-512 VM: 1.1 GB/s in 4 KiB pages).
constexpr size_t kHugePage = size_t{2} << 20;

void* host_alloc(size_t bytes) {
  if (bytes < kHugePage) return std::aligned_alloc(64, bytes);
  void* p = std::aligned_alloc(kHugePage, (bytes + kHugePage - 1) / kHugePage * kHugePage);
  if (p) ::madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

}  // namespace

BufferRef HostMemoryDevice::alloc(DType dtype, int64_t size) {
  check_alloc(size, dtype);
  // 64-byte alignment keeps vector loads aligned; never zero bytes
  const size_t bytes = (static_cast<size_t>(size) * itemsize(dtype) + 63) / 64 * 64 + 64;
  std::shared_ptr<void> mem = BufferPool::acquire(pool_, bytes, host_alloc);
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
