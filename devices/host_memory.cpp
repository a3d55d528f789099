#include "devices/host_memory.h"

#include <cstdlib>
#include <cstring>

#include "core/error.h"

namespace tr {

BufferRef HostMemoryDevice::alloc(DType dtype, int64_t size) {
  check_alloc(size, dtype);
  // 64-byte alignment lets vector loads of upcast dims stay aligned; never zero bytes
  const size_t bytes = (static_cast<size_t>(size) * itemsize(dtype) + 63) / 64 * 64 + 64;
  void* p = std::aligned_alloc(64, bytes);
  if (!p) fail("memory", "cannot allocate {} bytes on {}", bytes, name());
  return std::make_shared<Buffer>(Buffer{name(), dtype, size, std::shared_ptr<void>(p, std::free)});
}

void HostMemoryDevice::copyin(const Buffer& dst, const void* src) {
  std::memcpy(dst.mem.get(), src, static_cast<size_t>(dst.nbytes()));
}

void HostMemoryDevice::copyout(void* dst, const Buffer& src) {
  std::memcpy(dst, src.mem.get(), static_cast<size_t>(src.nbytes()));
}

}  // namespace tr
