#pragma once
// NVIDIA's PTX assembler as a checker of the PTX renderer's output: found on PATH or in
// /usr/local/cuda/bin (the CUDA toolkit; no GPU needed). Tests skip where it is absent.
#include <fstream>
#include <regex>
#include <string>

#include <fmt/format.h>

#include "devices/disk_cache.h"
#include "tests/checker_verdict.h"

namespace tr::testing {

// The ptxas program, or "" where the CUDA toolkit is not installed.
inline const std::string& ptxas() {
  static const std::string path = [] {
    std::string out;
    if (run_command("command -v ptxas || test -x /usr/local/cuda/bin/ptxas && echo /usr/local/cuda/bin/ptxas", out) != 0) return std::string();
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out.substr(out.rfind('\n') + 1);
  }();
  return path;
}

// What ptxas says against the source, assembled for `arch` and for the architecture its .target
// line names; "" when both assemble. The verdict is kept in the cache under ptxas's version and the
// text (checker_verdict.h): the sanitizer run renders the same PTX and reads the plain run's verdict.
inline std::string ptxas_errors(const std::string& ptx, const std::string& arch) {
  static const std::string version = [] {
    std::string out;
    run_command(fmt::format("'{}' --version", ptxas()), out);
    return out;
  }();
  return checker_verdict(fmt::format("ptxas|{}|{}|{}", version, arch, ptx), [&] {
    TempDir dir;
    const std::string file = dir.path() + "/kernel.ptx";
    std::ofstream(file) << ptx;
    std::smatch m;
    std::string errors;
    std::vector<std::string> archs{arch};
    if (std::regex_search(ptx, m, std::regex(R"(\.target (sm_\d+))"))) archs.push_back(m[1]);
    for (const std::string& a : archs) {
      std::string out;
      if (run_command(fmt::format("'{}' --gpu-name {} '{}' -o /dev/null 2>&1", ptxas(), a, file), out) != 0)
        errors += fmt::format("ptxas for {}:\n{}\n", a, out);
    }
    return errors.empty() ? "" : errors + "--- source ---\n" + ptx;
  });
}

}  // namespace tr::testing
