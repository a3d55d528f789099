// BLOCK on a CPU: a dim walked in blocks, one loop around all the others, so that each block reads a
// piece of the input that stays in cache; of a long reduce, the outputs keep their partial results
// between blocks.
//  - A transpose: blocks of the dim that walks the load's rows, as many rows as L1 holds a line of
//    each, so that the tiles of the next lines along those rows find them in the cache.
//  - A register tile's reduce whose steps of the tile's rows (of the operand they broadcast, which
//    every tile along those rows reads again) outgrow L1: blocks whose rows stay in half of L1 while
//    the tiles sweep the other operand; and one whose steps of the other operand's rows (which every
//    tile of rows reads again) outgrow L2: blocks whose rows of it stay in half of L2.
//  - A column reduce of at least 8 blocks: blocks of 8 rows, which the output tiles read side by side
//    as 8 streams.
#include <algorithm>

#include "core/base/error.h"
#include "core/opt/apply_opt.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"

namespace tr {
namespace {

constexpr int64_t kColumnBlock = 8;

bool applies(const OptPlan& p, const Target& t) {
  return !t.gpu && (p.transpose_rows >= 0 || p.cpu_tile_rows >= 0 || p.column_reduce);
}

void block_transpose(OptPlan& p, const Target& t) {
  const int g = last_global_on(p.kernel, p.transpose_rows);
  if (g < 0 || t.caches.l1d <= 0) return;
  const int64_t steps = t.caches.l1d / (kCacheLine * upcast_along(p.kernel, p.transpose_rows));
  if (p.kernel.dims[g].size % steps == 0 && p.kernel.dims[g].size > steps) p.kernel = apply_opt(p.kernel, {OptOp::Block, g, steps}, t);
}

// The steps of the reduce a block takes; 0 for none.
int64_t reduce_block(const OptPlan& p, int r, const Target& t) {
  const Kernel& k = p.kernel;
  int64_t steps = 0;
  if (p.cpu_tile_rows >= 0) {
    int64_t item = 1;
    walk(k.ast, [&](const AstNode& n) { item = n.op == AstOp::Load ? std::max<int64_t>(item, itemsize(n.dtype)) : item; });
    // where the reduce's steps of `bytes` each outgrow `cache`: the most steps (a power of two) in half of it
    const auto fit = [&](int64_t bytes, int64_t cache) {
      if (cache <= 0 || k.dims[r].size * bytes <= cache) return;
      int64_t half = 1;
      while (2 * half * bytes <= cache / 2) half *= 2;
      steps = steps > 0 ? std::min(steps, half) : half;
    };
    fit(upcast_along(k, p.cpu_tile_rows) * item, t.caches.l1d);
    fit(k.full_shape[static_cast<size_t>(p.cpu_tile_columns)] * item, t.caches.l2);
  }
  if (p.column_reduce && k.dims[r].size >= 8 * kColumnBlock) steps = kColumnBlock;
  return steps;
}

void apply(OptPlan& p, const Target& t) {
  if (p.transpose_rows >= 0) block_transpose(p, t);
  const int r = last_dim_with(p.kernel, DimRole::Reduce);
  if (r < 0) return;
  const int64_t steps = reduce_block(p, r, t);
  if (steps <= 0 || p.kernel.dims[r].size % steps != 0) return;
  try {
    p.kernel = apply_opt(p.kernel, {OptOp::Block, r, steps}, t);
  } catch (const Error&) {
    // the output is not the reduce's dtype (a half matmul's float sum): one walk
  }
}

}  // namespace

const Recipe kCacheBlocks{"cache blocks", applies, apply};

}  // namespace tr
