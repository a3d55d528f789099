#pragma once
// The invariant of the default opts, as the suites check it: for every target the project knows (CPU
// with SSE, AVX2, AVX-512, NEON and none; every GPU backend's nominal target: OpenCL, Metal, CUDA and
// PTX on an sm_90, HIP, WebGPU, QCOM; CUDA on an sm_80; OpenCL without half arithmetic), apply_opt
// accepts every opt the recipes choose.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/opt/apply_opt.h"
#include "core/opt/heuristic.h"
#include "core/render/render.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"

namespace tr::testing {

struct NamedTarget {
  std::string name;
  Target target;
};

inline const std::vector<NamedTarget>& default_opts_targets() {
  static const std::vector<NamedTarget> all = [] {
    const CacheSizes caches{.l1d = 32 << 10, .l2 = 1 << 20, .l3 = 32 << 20};
    std::vector<NamedTarget> t{{"CPU SSE", cpu_target(Isa::Sse, 4, caches)},
                               {"CPU AVX2", cpu_target(Isa::Avx2, 8, {.l1d = 48 << 10, .l2 = 2 << 20, .l3 = 0})},
                               {"CPU AVX-512", cpu_target(Isa::Avx512, 2, caches)},
                               {"CPU NEON", cpu_target(Isa::Neon, 8, {.l1d = 64 << 10, .l2 = 4 << 20})},
                               {"CPU without vectors, one core", cpu_target(Isa::None, 1, {})}};
    // every GPU backend's nominal target (CUDA's and PTX's an sm_90), and the variants its devices have
    for (const std::string& b : backends())
      if (backend_info(b).gpu) t.push_back({b, backend_info(b).nominal});
    Target sm80 = backend_info("cuda").nominal;
    sm80.matrix_units = cuda_matrix_units(8, 0);
    t.push_back({"CUDA sm_80", sm80});
    Target pocl = backend_info("opencl").nominal;
    pocl.half_arithmetic = false;
    pocl.warp_size = 0;
    t.push_back({"OpenCL without half arithmetic", pocl});
    return t;
  }();
  return all;
}

// The kernel's default opts on every target: no recipe refused, and the opts chosen are accepted
// again one by one from the kernel without opts.
inline void expect_default_opts_accepted(const AstRef& ast, const std::string& what) {
  const Kernel k = Kernel::from_ast(ast);
  for (const auto& [name, target] : default_opts_targets()) {
    const OptPlan plan = plan_default_opts(k, target);
    for (const auto& [recipe, why] : plan.refused)
      ADD_FAILURE() << what << " on " << name << ": apply_opt refused the " << recipe << " recipe: " << why;
    Kernel replay = k;
    for (const Opt& o : plan.kernel.opts) {
      try {
        replay = apply_opt(replay, o, target);
      } catch (const Error& e) {
        ADD_FAILURE() << what << " on " << name << ": " << o.str() << " refused on replay: " << e.what();
        break;
      }
    }
  }
}

// The same for every kernel of x's schedule; returns how many kernels it checked.
inline int expect_default_opts_accepted(const Tensor& x, const std::string& what) {
  int kernels = 0;
  for (const ScheduleItem& item : create_schedule({base_of(x.node())})) {
    if (item.kind != ScheduleItem::Kind::Kernel) continue;
    kernels++;
    expect_default_opts_accepted(item.ast, what);
  }
  return kernels;
}

}  // namespace tr::testing
