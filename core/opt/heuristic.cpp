#include "core/opt/heuristic.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/opt/opt_table.h"
#include "core/opt/recipes/dims.h"

namespace tr {

OptPlan OptPlan::of(const Kernel& k, const Target& target) {
  int64_t work = 1;
  for (const Dim& d : k.dims) work *= d.size;
  OptPlan plan;
  plan.kernel = k;
  plan.reduces = k.first_reduce < static_cast<int>(k.full_shape.size());
  plan.rows_whole = k.walks_rows_again();
  // the recipes split rows and copy steps, which an online softmax's in-order steps do not take
  plan.done = k.online_softmax;
  plan.threads = target_has(target, OptNeeds::CpuCores) && work >= (1 << 16);
  plan.lanes = std::max(4, target.float_lanes());
  plan.max_copies = std::max<int64_t>(1, kMaxSourceOps / body_ops(k));
  return plan;
}

const std::vector<Recipe>& default_recipes() {
  static const std::vector<Recipe> recipes{kTensorCores, kRegisterTile, kColumnReduce, kTranspose, kRowLanes, kGpuStaging,
                                           kUnroll,      kGpuVectors,   kCpuUpcast,    kWorkgroup, kCores,    kCacheBlocks};
  return recipes;
}

OptPlan plan_default_opts(const Kernel& k, const Target& target) {
  OptPlan plan = OptPlan::of(k, target);
  for (const Recipe& r : default_recipes()) {
    if (plan.done || !r.applies(plan, target)) continue;
    OptPlan before = plan;
    try {
      r.apply(plan, target);
    } catch (const Error& e) {
      before.refused.emplace_back(r.name, e.what());
      plan = std::move(before);
      continue;
    }
    const int64_t copies = body_copies(plan.kernel, target);
    if (copies > plan.max_copies && copies > body_copies(before.kernel, target)) {
      before.too_large.emplace_back(r.name, fmt::format("{} copies of a body of {} ops", copies, body_ops(k)));
      plan = std::move(before);
      continue;
    }
    plan.applied.push_back(r.name);
  }
  return plan;
}

Kernel default_opts(const Kernel& k, const Target& target) { return plan_default_opts(k, target).kernel; }

}  // namespace tr
