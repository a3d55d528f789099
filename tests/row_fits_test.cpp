// When a row that a kernel walks several times (softmax, var, layernorm) fits the target: a CPU's L2
// cache, a GPU's warp. The targets are built by hand, so the rule follows the hardware
// described, not the machine running the test.
#include <gtest/gtest.h>

#include "core/row_fits.h"

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

TEST(RowFits, AGpuRowFitsWhenItIsAsShortAsAWarp) {
  Target gpu;
  gpu.gpu = true;
  gpu.local_memory = 48 << 10;
  gpu.warp_size = 32;
  EXPECT_FALSE(row_too_long(gpu, 32, DType::Float32));
  const auto why = row_too_long(gpu, 33, DType::Float32);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("one thread walks the row"), std::string::npos) << *why;
  gpu.warp_size = 64;
  EXPECT_FALSE(row_too_long(gpu, 64, DType::Float64)) << "elements count on a GPU, not bytes";
  gpu.warp_size = 0;
  EXPECT_TRUE(row_too_long(gpu, 33, DType::Float32)) << "32 where the device does not say";
}

}  // namespace
}  // namespace tr
