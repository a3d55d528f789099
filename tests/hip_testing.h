#pragma once
// clang's HIP mode as a checker of the HIP renderer's output: each source is compiled for an AMD GPU
// (gfx90a, device code only, to its ISA) against the project's stand-in for ROCm's header
// (devices/shims/hip/hip/hip_runtime.h; TINYREPL_HIP_INCLUDE names its folder). No AMD GPU or ROCm needed;
// tests skip where clang cannot compile HIP.
#include <fstream>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "devices/disk_cache.h"
#include "tests/checker_verdict.h"

namespace tr::testing {

inline std::string hip_command(const std::string& file) {
  return fmt::format("clang++ -x hip --offload-arch=gfx90a -nogpulib -nogpuinc --cuda-device-only -O1 -I '{}' -S -o /dev/null '{}' 2>&1",
                     TINYREPL_HIP_INCLUDE, file);
}

// What clang says against the source; "" when it compiles. The verdict is kept in the cache under
// clang's version, the headers and the text (checker_verdict.h).
inline std::string hip_errors(const std::string& source) {
  static const std::string tools = [] {
    std::string out;
    run_command("clang++ --version", out);
    for (const char* header : {"/hip/hip_runtime.h", "/../half.h"}) {
      std::ifstream in(std::string(TINYREPL_HIP_INCLUDE) + header);
      out += std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return out;
  }();
  return checker_verdict(fmt::format("hip|{}|{}|{}", hip_command("kernel.hip"), tools, source), [&] {
    TempDir dir;
    const std::string file = dir.path() + "/kernel.hip";
    std::ofstream(file) << source;
    std::string out;
    return run_command(hip_command(file), out) == 0 ? "" : out + "--- source ---\n" + source;
  });
}

// Why HIP cannot be compiled here (clang missing, or without its AMDGPU target); "" when it can.
inline const std::string& hip_unavailable() {
  static const std::string why = [] {
    const std::string errors = hip_errors("#include <hip/hip_runtime.h>\nextern \"C\" __global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n");
    return errors.empty() ? std::string() : "clang cannot compile HIP for gfx90a here: " + errors.substr(0, errors.find('\n'));
  }();
  return why;
}

}  // namespace tr::testing
