// A sum of half products on a GPU's matrix unit: TC on the first reduce dim that a unit's K divides
// (the largest K first), then each warp a tile of 4 by 8 of the unit's tiles (64x64 outputs), 2 warps
// a workgroup side by side along N, and the tiles of two steps of the unit a turn staged in local
// memory in two halves. The kernel then takes no other recipe.
#include <algorithm>
#include <tuple>

#include "core/base/error.h"
#include "core/opt/apply_opt.h"
#include "core/opt/opt_table.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"

namespace tr {
namespace {

constexpr int64_t kStagedSteps = 2;

// The output dim on the axis of a TC opt's part (its M or N tiles' count).
int tiles_dim(const Kernel& k, TcPart part) {
  const auto lanes = std::find_if(k.dims.begin(), k.dims.end(), [&](const Dim& d) { return d.tc == part; });
  return last_global_on(k, lanes->axis);
}

bool applies(const OptPlan& p, const Target& t) {
  return target_has(t, OptNeeds::MatrixUnits) && first_dim_with(p.kernel, DimRole::Reduce) >= 0;
}

void apply(OptPlan& p, const Target& t) {
  const int r = first_dim_with(p.kernel, DimRole::Reduce);
  for (const MatrixUnit& unit : t.matrix_units) {
    Kernel out = p.kernel;
    try {
      out = apply_opt(out, {OptOp::Tc, r, unit.k}, t);
    } catch (const Error&) {
      continue;  // this unit does not take the reduce
    }
    // a dim smaller than its tile is upcast wholly, and then has no piece left for the workgroup
    for (const auto& [part, upcast, local] : {std::tuple{TcPart::NLanes, 8, 2}, std::tuple{TcPart::MLanes, 4, 1}}) {
      if (const int d = tiles_dim(out, part); d >= 0 && largest_divisor_upto(out.dims[d].size, upcast) >= 2)
        out = apply_opt(out, {OptOp::Upcast, d, largest_divisor_upto(out.dims[d].size, upcast)}, t);
      if (const int d = tiles_dim(out, part); d >= 0 && local > 1 && out.dims[d].size % local == 0 && out.dims[d].size > local)
        out = apply_opt(out, {OptOp::Local, d, local}, t);
    }
    if (const int s = last_dim_with(out, DimRole::Reduce); s >= 0 && out.dims[s].size % kStagedSteps == 0)
      out = apply_opt(out, {OptOp::Stage, s, kStagedSteps}, t);
    // a staged loop of more than one turn
    if (const int s = last_dim_with(out, DimRole::Reduce); s >= 0 && out.dims[s].axis == out.stage_axis)
      out = apply_opt(out, {OptOp::Double, s, 2}, t);
    p.kernel = out;
    p.done = true;
    return;
  }
}

}  // namespace

const Recipe kTensorCores{"tensor cores", applies, apply};

}  // namespace tr
