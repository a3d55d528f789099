#pragma once
// NVRTC, loaded at run time: CUDA C++ source to a cubin or to PTX, with no CUDA at build time.
// The CUDA device compiles with it, and the tests use it alone on machines with no GPU.
#include <memory>
#include <string>
#include <vector>

namespace tr {

class Nvrtc {
 public:
  // The library, loaded once; throws tr::Error("device") saying where it looked when it is missing.
  static const Nvrtc& get();

  std::string version() const;              // "13.0"
  std::vector<int> supported_archs() const;  // 75, 80, 86, ...
  // Compiles for `arch`: "sm_90" gives a cubin, "compute_90" PTX (NUL-terminated, as the driver
  // reads it); `options` follow the architecture (:asm's "-lineinfo"). Throws tr::Error("compile") with
  // NVRTC's log and the source.
  std::string compile(const std::string& source, const std::string& arch, const std::vector<std::string>& options = {}) const;

  struct Api;

 private:
  explicit Nvrtc(std::shared_ptr<const Api> api) : api_(std::move(api)) {}
  std::shared_ptr<const Api> api_;
};

}  // namespace tr
