#pragma once
// The invariant of the default opts, as the suites check it: for every target the project knows (CPU
// with SSE, AVX2, AVX-512, NEON and none; CUDA sm_80 and sm_90; OpenCL with and without half
// arithmetic; QCOM; Metal; WebGPU; HIP), apply_opt accepts every opt the recipes choose.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/opt/apply_opt.h"
#include "core/opt/heuristic.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"

namespace tr::testing {

struct NamedTarget {
  std::string name;
  Target target;
};

inline Target nominal_gpu(int64_t local_memory, int vector_width, bool vector_alu, int warp, std::vector<MatrixUnit> units) {
  return {.gpu = true, .local_memory = local_memory, .cores = 1, .max_local = 256, .vector_width = vector_width,
          .vector_alu = vector_alu, .warp_size = warp, .matrix_units = std::move(units)};
}

inline const std::vector<NamedTarget>& default_opts_targets() {
  static const std::vector<NamedTarget> all = [] {
    const CacheSizes caches{.l1d = 32 << 10, .l2 = 1 << 20, .l3 = 32 << 20};
    std::vector<NamedTarget> t{{"CPU SSE", cpu_target(Isa::Sse, 4, caches)},
                               {"CPU AVX2", cpu_target(Isa::Avx2, 8, {.l1d = 48 << 10, .l2 = 2 << 20, .l3 = 0})},
                               {"CPU AVX-512", cpu_target(Isa::Avx512, 2, caches)},
                               {"CPU NEON", cpu_target(Isa::Neon, 8, {.l1d = 64 << 10, .l2 = 4 << 20})},
                               {"CPU without vectors, one core", cpu_target(Isa::None, 1, {})},
                               {"CUDA sm_80", nominal_gpu(48 << 10, 4, false, 32, cuda_matrix_units(8, 0))},
                               {"CUDA sm_90", nominal_gpu(48 << 10, 4, false, 32, cuda_matrix_units(9, 0))},
                               {"OpenCL", nominal_gpu(48 << 10, 4, true, 32, {})},
                               {"QCOM", nominal_gpu(32 << 10, 4, true, 64, {})},
                               {"Metal", nominal_gpu(32 << 10, 0, false, 32, metal_matrix_units())},
                               {"WebGPU", nominal_gpu(16 << 10, 4, true, 0, {})},
                               {"HIP", nominal_gpu(64 << 10, 4, false, 64, {})}};
    Target pocl = nominal_gpu(48 << 10, 4, true, 0, {});
    pocl.half_arithmetic = false;
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
