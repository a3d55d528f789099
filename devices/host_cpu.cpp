#include "devices/host_cpu.h"

#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "core/base/error.h"

namespace tr {
namespace {

#if defined(__x86_64__) || defined(__i386__)
// cpuid leaf 1: clang 14's __builtin_cpu_supports does not know "f16c"
bool f16c() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
}
#endif

Isa hardware_isa() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return x86_isa({.sse2 = __builtin_cpu_supports("sse2") != 0,
                  .avx2 = __builtin_cpu_supports("avx2") != 0,
                  .fma = __builtin_cpu_supports("fma") != 0,
                  .f16c = f16c(),
                  .avx512f = __builtin_cpu_supports("avx512f") != 0,
                  .avx512vl = __builtin_cpu_supports("avx512vl") != 0,
                  .avx512bw = __builtin_cpu_supports("avx512bw") != 0,
                  .avx512dq = __builtin_cpu_supports("avx512dq") != 0});
#elif defined(__aarch64__)
  return Isa::Neon;
#else
  return Isa::None;
#endif
}

// "48K", "2048K", "105M" as sysfs writes a cache's size.
int64_t sysfs_size(const std::string& text) {
  size_t used = 0;
  int64_t n = 0;
  try {
    n = std::stoll(text, &used);
  } catch (const std::exception&) {
    return 0;
  }
  const char unit = used < text.size() ? text[used] : ' ';
  return unit == 'K' ? n << 10 : unit == 'M' ? n << 20 : unit == 'G' ? n << 30 : n;
}

// cpu0's data or unified cache of this level, from /sys; 0 where it does not say.
int64_t sysfs_cache(int level) {
  for (int i = 0; i < 8; i++) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    std::string lvl, type, size;
    std::ifstream(dir + "level") >> lvl;
    std::ifstream(dir + "type") >> type;
    std::ifstream(dir + "size") >> size;
    if (lvl == std::to_string(level) && (type == "Data" || type == "Unified")) return sysfs_size(size);
  }
  return 0;
}

// /sys first: it says what cpu0 has. glibc's sysconf computes an AMD CPU's L3 from cpuid, which a
// VM can give oddly: 320 MiB on the 2-core AMD EPYC VM whose /sys (and lscpu) say 32 MiB.
int64_t cache_size(int sysconf_name, int level) {
  if (const int64_t n = sysfs_cache(level); n > 0) return n;
  const long n = sysconf(sysconf_name);
  return n > 0 ? static_cast<int64_t>(n) : 0;
}

}  // namespace

int host_cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

Target host_cpu_target() {
  Isa isa = hardware_isa();
  if (const char* env = std::getenv("TINYREPL_ISA"); env && *env) {
    const std::optional<Isa> named = parse_isa(env);
    if (!named) fail("device", "TINYREPL_ISA='{}' names no instruction set (none, sse, avx2, avx512, neon)", env);
    isa = *named;
  }
  return cpu_target(isa, host_cores(),
                    {.l1d = cache_size(_SC_LEVEL1_DCACHE_SIZE, 1), .l2 = cache_size(_SC_LEVEL2_CACHE_SIZE, 2),
                     .l3 = cache_size(_SC_LEVEL3_CACHE_SIZE, 3)});
}

}  // namespace tr
