// A reduce whose two innermost output dims are broadcast by its loads (a matmul): a register tile,
// rows by vector registers of columns, reuses every load across the tile. Each tile dim is padded so
// that the tile (and a GPU's workgroup or a CPU's cores after it) divides it.
#include <vector>

#include "core/opt/apply_opt.h"
#include "core/opt/heuristic.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"

namespace tr {
namespace {

// The tile's column and row dims, innermost first; fewer than 2 where the kernel has no tile.
std::vector<int> tile_dims(const Kernel& k) {
  std::vector<int> tile;
  for (int i = static_cast<int>(k.dims.size()) - 1; i >= 0 && tile.size() < 2; i--)
    if (splittable(k.dims[i], DimRole::Global) && broadcast_by_a_load(k, k.dims[i].axis)) tile.push_back(i);
  return tile;
}

bool applies(const OptPlan& p, const Target&) { return p.reduces && !p.rows_whole && tile_dims(p.kernel).size() == 2; }

void apply(OptPlan& p, const Target& t) {
  const std::vector<int> tile = tile_dims(p.kernel);
  Kernel& out = p.kernel;
  // A GPU thread's wide upcast of columns would scatter its neighbours' loads: 4 columns by 8 rows.
  if (t.gpu) {
    p.gpu_tile_columns = out.dims[tile[0]].axis;
    upcast_tile_dim(out, tile[0], {4}, kTileLocalX, t);
    upcast_tile_dim(out, tile[1], {8, 4}, kReduceLocalY, t);
    return;
  }
  // columns: one vector register, then the tile's vectors of them side by side (where the dim allows
  // after padding); rows: the tile's, split over the cores after when they are outermost
  const RegisterTile rt = cpu_register_tile(t);
  std::vector<int64_t> columns{rt.lanes};
  for (int64_t a = rt.lanes / 2; a >= 4; a /= 2) columns.push_back(a);
  const bool rows_threaded = p.threads && tile[1] == 0;
  // the axes, before the upcasts split the dims (the rows' split moves the columns' dim one further)
  p.cpu_tile_rows = out.dims[tile[1]].axis;
  p.cpu_tile_columns = out.dims[tile[0]].axis;
  const size_t before = out.dims.size();
  upcast_tile_dim(out, tile[0], columns, rt.vectors, t);
  if (out.dims.size() > before && out.dims[tile[0]].size % rt.vectors == 0 && out.dims[tile[0]].size > rt.vectors)
    out = apply_opt(out, {OptOp::Upcast, tile[0], rt.vectors}, t);
  upcast_tile_dim(out, tile[1], {rt.rows, 4}, rows_threaded ? t.cores : 1, t);
}

}  // namespace

RegisterTile cpu_register_tile(const Target& target) {
  const int64_t lanes = std::max(4, target.float_lanes());
  // without a vector instruction set the compiler still has 16 registers to keep scalars in
  const int64_t registers = std::max(16, isa_vector_registers(target.isa));
  RegisterTile t{.rows = 1, .vectors = 2, .lanes = lanes};
  while ((2 * t.rows) * t.vectors + t.vectors + 1 <= registers) t.rows *= 2;
  return t;
}

const Recipe kRegisterTile{"register tile", applies, apply};

}  // namespace tr
