// BLOCK on a CPU: a dim walked in blocks, one loop around all the others, so that each block reads a
// piece of the input that stays in cache; of a long reduce, the outputs keep their partial results
// between blocks.
//  - A transpose: blocks of the dim that walks the load's rows, as many rows as L1 holds a line of
//    each, so that the tiles of the next lines along those rows find them in the cache.
//  - A register tile's reduce whose steps of the tile's rows (of the operand they broadcast, which
//    every tile along those rows reads again) outgrow L1: blocks whose rows stay in half of L1 while
//    the tiles sweep the other operand. Where that block's rows of the other operand (which every
//    tile of rows reads again) outgrow L2: with a tile of at least kPanelRows rows, a second BLOCK of
//    the columns, around the first, makes panels of the other operand that stay in half of L2 (a
//    2D blocking, as a BLAS's macro-kernel walks its operands); with fewer rows, the reduce's
//    blocks shrink instead until whole rows of the other operand stay in half of L2.
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

// A register tile reads each vector of the other operand's panel for this many rows at least, else
// the panel's rows, a stride apart, cost more from L2 than the passes over the output that whole rows
// take (core/opt/NOTES.md, "cache blocks").
constexpr int64_t kPanelRows = 8;

// The most steps (a power of two) of `bytes` each that half of `cache` holds, where `steps` of them
// outgrow all of it; 0 where they fit or the cache is unknown.
int64_t half_of_cache(int64_t steps, int64_t bytes, int64_t cache) {
  if (cache <= 0 || steps * bytes <= cache) return 0;
  int64_t half = 1;
  while (2 * half * bytes <= cache / 2) half *= 2;
  return half;
}

// How a block is walked: the reduce's steps a block takes and the output dim (and its amount) whose
// blocks make panels of the columns; 0 and -1 for none.
struct Blocks {
  int64_t steps = 0;
  int columns_dim = -1;
  int64_t columns = 0;
};

Blocks tile_blocks(const OptPlan& p, int r, const Target& t) {
  const Kernel& k = p.kernel;
  int64_t item = 1;
  walk(k.ast, [&](const AstNode& n) { item = n.op == AstOp::Load ? std::max<int64_t>(item, itemsize(n.dtype)) : item; });
  const int64_t rows = upcast_along(k, p.cpu_tile_rows), tile_columns = upcast_along(k, p.cpu_tile_columns);
  const int64_t row_bytes = k.full_shape[static_cast<size_t>(p.cpu_tile_columns)] * item;
  Blocks b{.steps = half_of_cache(k.dims[r].size, rows * item, t.caches.l1d)};
  const int64_t steps = b.steps > 0 ? b.steps : k.dims[r].size;
  const int g = last_global_on(k, p.cpu_tile_columns);
  if (rows >= kPanelRows && g >= 0 && t.caches.l2 > 0 && steps * row_bytes > t.caches.l2) {
    int64_t tiles = 1;
    while (2 * tiles * tile_columns * steps * item <= t.caches.l2 / 2) tiles *= 2;
    if (tiles >= 2 && k.dims[g].size % tiles == 0 && k.dims[g].size > tiles) return {b.steps, g, tiles};
  }
  const int64_t l2_steps = half_of_cache(k.dims[r].size, row_bytes, t.caches.l2);
  if (l2_steps > 0) b.steps = b.steps > 0 ? std::min(b.steps, l2_steps) : l2_steps;
  return b;
}

// The steps of the reduce a block takes, and the columns' panels; none where the kernel is neither.
Blocks reduce_blocks(const OptPlan& p, int r, const Target& t) {
  if (p.cpu_tile_rows >= 0) return tile_blocks(p, r, t);
  if (p.column_reduce && p.kernel.dims[r].size >= 8 * kColumnBlock) return {.steps = kColumnBlock};
  return {};
}

void apply(OptPlan& p, const Target& t) {
  if (p.transpose_rows >= 0) block_transpose(p, t);
  const int r = last_dim_with(p.kernel, DimRole::Reduce);
  if (r < 0) return;
  const Blocks b = reduce_blocks(p, r, t);
  bool reduce_blocked = false;
  if (b.steps > 0 && p.kernel.dims[r].size % b.steps == 0) {
    try {
      p.kernel = apply_opt(p.kernel, {OptOp::Block, r, b.steps}, t);
      reduce_blocked = true;
    } catch (const Error&) {
      // the output is not the reduce's dtype (a half matmul's float sum): one walk
    }
  }
  // the panels were sized for the reduce's blocks; the reduce's BLOCK went in front of the columns' dim
  if (b.columns_dim >= 0 && (reduce_blocked || b.steps == 0))
    p.kernel = apply_opt(p.kernel, {OptOp::Block, b.columns_dim + (reduce_blocked ? 1 : 0), b.columns}, t);
}

}  // namespace

const Recipe kCacheBlocks{"cache blocks", applies, apply};

}  // namespace tr
