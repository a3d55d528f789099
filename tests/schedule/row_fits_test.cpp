// When a row that a kernel walks several times (softmax, var, layernorm) fits the target: a CPU's L2
// cache, a GPU's warp. The targets are built by hand, so the rule follows the hardware
// described, not the machine running the test.
#include <gtest/gtest.h>

#include "core/schedule/row_fits.h"

namespace tr {
namespace {

TEST(RowFits, ACpuRowFitsItsL2Cache) {
  const Target small = cpu_target(Isa::Avx2, 2, CacheSizes{32 << 10, 512 << 10, 0});
  EXPECT_FALSE(row_too_long(small, 1024, DType::Float32));
  EXPECT_FALSE(row_too_long(small, 131072, DType::Float32)) << "512 KiB exactly";
  const auto why = row_too_long(small, 131073, DType::Float32);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("the L2 cache (524288 bytes)"), std::string::npos) << *why;
  EXPECT_TRUE(row_too_long(small, 65537, DType::Float64)) << "the row's bytes count, not its elements";
  const Target big = cpu_target(Isa::Avx512, 16, CacheSizes{48 << 10, 2 << 20, 0});
  EXPECT_FALSE(row_too_long(big, 131073, DType::Float32));
}

TEST(RowFits, ACpuThatDoesNotSayItsL2IsTakenToHave256KiB) {
  const Target t = cpu_target(Isa::Sse, 1, CacheSizes{});
  EXPECT_FALSE(row_too_long(t, 65536, DType::Float32));
  EXPECT_TRUE(row_too_long(t, 65537, DType::Float32));
}

TEST(RowFits, AGpuRowFitsWhenItsWorkgroupCanWalkIt) {
  // with workgroups and local memory: up to 64 elements for each thread a workgroup holds
  Target gpu;
  gpu.gpu = true;
  gpu.local_memory = 48 << 10;
  gpu.max_local = 256;
  gpu.warp_size = 32;
  EXPECT_FALSE(row_too_long(gpu, 256 * 64, DType::Float32));
  EXPECT_FALSE(row_too_long(gpu, 256 * 64, DType::Float64)) << "elements count on a GPU, not bytes";
  const auto why = row_too_long(gpu, 256 * 64 + 1, DType::Float32);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("64 per thread of a workgroup"), std::string::npos) << *why;
  // without local memory one thread walks each row: as short as a warp
  gpu.local_memory = 0;
  EXPECT_FALSE(row_too_long(gpu, 32, DType::Float32));
  const auto warp = row_too_long(gpu, 33, DType::Float32);
  ASSERT_TRUE(warp);
  EXPECT_NE(warp->find("a warp"), std::string::npos) << *warp;
  gpu.warp_size = 64;
  EXPECT_FALSE(row_too_long(gpu, 64, DType::Float64));
  gpu.warp_size = 0;
  EXPECT_TRUE(row_too_long(gpu, 33, DType::Float32)) << "32 where the device does not say";
}

}  // namespace
}  // namespace tr
