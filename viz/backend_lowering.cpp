#include "viz/backend_lowering.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "core/codegen/codegen.h"
#include "core/base/context.h"
#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/opt/heuristic.h"
#include "core/render/render.h"

namespace tr {
namespace {

bool gpu_language(std::string_view backend) {
  return backend == "opencl" || backend == "qcom" || backend == "cuda" || backend == "metal" || backend == "ptx" ||
         backend == "hip" || backend == "wgsl";
}

std::string device_of(std::string_view backend) {
  std::string name(backend);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::toupper(ch); });
  if (name == "C") return "CPU";
  if (name == "HIP") return "AMD";
  if (name == "WGSL") return "WEBGPU";
  return name == "PTX" ? "NV" : name;
}

// The backend's own device's target where it opens here and is of the backend's kind; else a nominal
// GPU: warps of 32 (AMD's wavefronts of 64; WebGPU names none), 48 KiB of workgroup memory (Metal's 32,
// AMD's 64, WebGPU's guaranteed 16), 256 threads per workgroup, vectors of 4 where the language moves
// them whole (OpenCL, CUDA, HIP) or lane by lane in registers (PTX, WGSL), and the matrix units the
// language spells (NVIDIA's for CUDA and PTX, Apple's for Metal), so that a TC kernel shows here too.
std::pair<Target, std::string> target_of(std::string_view backend) {
  const std::string name = device_of(backend);
  if (device_status(name).empty()) {
    const Target t = device(name).target();
    if (t.gpu == gpu_language(backend)) return {t, name};
  }
  if (!gpu_language(backend)) return {device("CPU").target(), "CPU"};
  const bool amd = backend == "hip", webgpu = backend == "wgsl";
  Target t{.gpu = true, .local_memory = backend == "metal" ? 32 << 10 : amd ? 64 << 10 : webgpu ? 16 << 10 : 48 << 10, .cores = 1,
           .max_local = 256, .vector_width = backend == "metal" ? 0 : 4, .vector_alu = backend == "opencl" || backend == "qcom" || webgpu,
           .warp_size = amd ? 64 : webgpu ? 0 : 32,
           .matrix_units = spelled_matrix_units(backend)};
  return {t, fmt::format("a nominal {} GPU ({} does not open here)", name, name)};
}

}  // namespace

BackendLowering lowering_for_backend(const KernelRecord& r, std::string_view backend) {
  const Target own = device(r.device).target();
  const bool spelled = spells_matrix_units(backend, *r.program);
  if (!r.ast || (own.gpu == gpu_language(backend) && spelled)) return {*r.program, ""};
  const auto [target, whose] = target_of(backend);
  const Kernel plain = Kernel::from_ast(r.ast);
  const Kernel k = settings().noopt ? plain : default_opts(plain, target);
  std::vector<std::string> opts;
  for (const Opt& o : k.opts) opts.push_back(o.str());
  return {codegen(k, target, r.name),
          fmt::format("lowered for {} with {}: {} (this kernel ran on {})", whose,
                      settings().noopt ? "no opts (NOOPT)" : "its default opts",
                      opts.empty() ? "none" : fmt::format("{}", fmt::join(opts, ", ")), r.device)};
}

}  // namespace tr
