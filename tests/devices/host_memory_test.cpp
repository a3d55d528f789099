// The CPU device's buffers: 64-byte aligned, and a buffer of 2 MiB or more on a huge page's boundary,
// so that the kernel can back it with huge pages where transparent huge pages are set to `madvise`.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/runtime/device.h"

namespace tr {
namespace {

uintptr_t address(const BufferRef& b) { return reinterpret_cast<uintptr_t>(b->mem.get()); }

TEST(HostMemory, LargeBuffersStartOnAHugePage) {
  Device& cpu = device("CPU");
  for (const int64_t n : {1, 1000, 100000}) EXPECT_EQ(address(cpu.alloc(DType::Float32, n)) % 64, 0u) << n;
  for (const int64_t n : {int64_t{1} << 19, int64_t{3} << 20}) EXPECT_EQ(address(cpu.alloc(DType::Float32, n)) % (2 << 20), 0u) << n;
}

}  // namespace
}  // namespace tr
