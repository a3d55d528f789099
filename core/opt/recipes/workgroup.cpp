// A GPU workgroup: threads along the innermost output dim (neighbours read neighbours), then along the
// next, within the device's limit; a kernel that walks its rows several times (a softmax) first gets a
// workgroup per row, its threads splitting every walk, so that each walk reads the row coalesced and
// the row stays in the cache between walks. Then a matmul's thread takes a second group of 4 columns,
// the workgroup's width of columns away (8 by 8 outputs a thread, each group one float4 load that the
// warp reads coalesced), and a reduce without a register tile (sums, maxima) is split over the
// workgroup's threads too, each leaving its partials in local memory: along memory as many as the
// workgroup holds of 32, 16 or 8, down columns 8 (whose threads already read neighbouring columns).
#include <algorithm>
#include <vector>

#include "core/opt/apply_opt.h"
#include "core/opt/opt_table.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"

namespace tr {
namespace {

bool applies(const OptPlan&, const Target& t) { return target_has(t, OptNeeds::LocalMemory); }

// The threads of a workgroup along the two innermost output dims; returns the workgroup's size.
int64_t place_threads(OptPlan& p, int64_t threads, bool tiled, const Target& t) {
  Kernel& out = p.kernel;
  int placed = 0;
  for (int i = static_cast<int>(out.dims.size()) - 1; i >= 0 && placed < 2; i--) {
    if (!splittable(out.dims[i], DimRole::Global)) continue;
    const int64_t want = placed ? (out.stage_axis >= 0 ? kStagedLocalY : kReduceLocalY)
                         : !p.reduces ? kElementwiseLocal : tiled ? kTileLocalX : kReduceLocalX;
    const int64_t amt = largest_divisor_upto(out.dims[i].size, std::min<int64_t>(want, t.max_local / threads));
    placed++;
    if (amt < 2) continue;
    out = apply_opt(out, {OptOp::Local, i, amt}, t);
    threads *= amt;
  }
  return threads;
}

void apply(OptPlan& p, const Target& t) {
  Kernel& out = p.kernel;
  int64_t threads = 1;
  if (const int r = last_dim_with(out, DimRole::Reduce); r >= 0 && p.rows_whole) {
    std::vector<int64_t> amounts;
    for (int64_t g = t.max_local; g >= 8; g /= 2) amounts.push_back(g);
    threads = group_reduce(out, r, amounts, threads, out.row_passes, t);
  }
  const bool tiled = std::any_of(out.dims.begin(), out.dims.end(), [](const Dim& d) { return d.role == DimRole::Upcast; });
  threads = place_threads(p, threads, tiled, t);
  if (p.gpu_tile_columns >= 0)
    if (const int i = last_global_on(out, p.gpu_tile_columns); i >= 0 && out.dims[i].size % 2 == 0)
      out = apply_opt(out, {OptOp::Upcast, i, 2}, t);
  if (const int r = last_dim_with(out, DimRole::Reduce); r >= 0 && !p.rows_whole && !tiled) {
    const std::vector<int64_t> amounts = loads_in_order(out, out.dims[r].axis) ? std::vector<int64_t>{32, 16, 8}
                                                                               : std::vector<int64_t>{8};
    group_reduce(out, r, amounts, threads, upcast_product(out), t);
  }
}

}  // namespace

const Recipe kWorkgroup{"workgroup", applies, apply};

}  // namespace tr
