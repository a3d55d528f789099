#include "core/opt/heuristic.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "core/base/error.h"
#include "core/opt/apply_opt.h"
#include "core/opt/opt_table.h"

namespace tr {
namespace {

// The heuristic splits only dims of a known size: a symbolic dim's size is its Variable's largest
// value, and the kernel serves every value of it, so it keeps the dim whole.
bool splittable(const Dim& d, DimRole role) { return d.role == role && !d.sym; }

int last_dim_with(const Kernel& k, DimRole role) {
  for (int i = static_cast<int>(k.dims.size()) - 1; i >= 0; i--)
    if (splittable(k.dims[i], role)) return i;
  return -1;
}

int64_t largest_divisor_upto(int64_t n, int64_t limit) {
  for (int64_t a = std::min(n, limit); a >= 2; a--)
    if (n % a == 0) return a;
  return 1;
}

// Whether some load reads the same element for every value of this axis: upcasting it reuses that load.
bool broadcast_by_a_load(const Kernel& k, int axis) {
  bool found = false;
  walk(k.ast, [&](const AstNode& n) {
    if (n.op == AstOp::Load && n.st->real_stride(axis) == 0) found = true;
  });
  return found;
}

// A permuting copy's other side: an output dim (not the innermost one, `inner`) along which some load
// steps 1 element while it steps more than 1 along `inner`, and that load's element size; -1 when
// there is none.
std::pair<int, int64_t> transposed_dim(const Kernel& k, int inner) {
  std::pair<int, int64_t> found{-1, 1};
  walk(k.ast, [&](const AstNode& n) {
    if (n.op != AstOp::Load) return;
    const std::optional<int64_t> along_inner = n.st->real_stride(k.dims[inner].axis);
    if (along_inner == 0 || along_inner == 1) return;
    for (int i = 0; i < static_cast<int>(k.dims.size()); i++)
      if (i != inner && splittable(k.dims[i], DimRole::Global) && n.st->real_stride(k.dims[i].axis) == 1)
        found = {i, itemsize(n.dtype)};
  });
  return found;
}

int64_t upcast_product(const Kernel& k) {
  int64_t n = 1;
  for (const Dim& d : k.dims)
    if ((d.role == DimRole::Upcast || d.role == DimRole::Unroll) && d.tc == TcPart::None) n *= d.size;
  return n;
}

// Pads output dim `dim` (still a whole axis) up to a multiple of `multiple` when it is not one, as
// long as the padding is at most a quarter of the dim (tinygrad's bound).
void pad_to_multiple(Kernel& k, int dim, int64_t multiple, const Target& target) {
  const int64_t n = k.dims[dim].size;
  const int64_t to = (n + multiple - 1) / multiple * multiple;
  if (to != n && (to - n) * 4 <= n) k = apply_opt(k, {OptOp::Padto, dim, multiple}, target);
}

// Upcasts a tile dim by the first amount that fits: the first one after padding the dim to a multiple
// of it times `then_split` (the workgroup or cores that split it next), else any that divides it.
void upcast_tile_dim(Kernel& k, int dim, const std::vector<int64_t>& amounts, int64_t then_split, const Target& target) {
  if (k.dims[dim].size > amounts.front() * then_split) pad_to_multiple(k, dim, amounts.front() * then_split, target);
  for (const int64_t amt : amounts)
    if (k.dims[dim].size % amt == 0 && k.dims[dim].size > amt) {
      k = apply_opt(k, {OptOp::Upcast, dim, amt}, target);
      return;
    }
}

// Splits reduce dim r over the first of `amounts` threads that divides it at least twice, fits the
// workgroup beside its `threads` and leaves each thread's `partials` results (at most 8 bytes each) in
// local memory that holds them; returns how many threads the workgroup has then.
int64_t group_reduce(Kernel& k, int r, const std::vector<int64_t>& amounts, int64_t threads, int64_t partials,
                     const Target& target) {
  for (const int64_t g : amounts) {
    if (k.dims[r].size % g != 0 || k.dims[r].size < 2 * g || threads * g > target.max_local ||
        threads * g * partials * 8 > target.local_memory)
      continue;
    k = apply_opt(k, {OptOp::Group, r, g}, target);
    return threads * g;
  }
  return threads;
}

// The innermost output dim of a known size on the axis; -1 where none is.
int last_global_on(const Kernel& k, int axis) {
  for (int i = static_cast<int>(k.dims.size()) - 1; i >= 0; i--)
    if (splittable(k.dims[i], DimRole::Global) && k.dims[i].axis == axis) return i;
  return -1;
}

// How many copies the upcasts of the axis make.
int64_t upcast_along(const Kernel& k, int axis) {
  int64_t n = 1;
  for (const Dim& d : k.dims)
    if (d.role == DimRole::Upcast && d.axis == axis) n *= d.size;
  return n;
}

// The output dim on the axis of a TC opt's part (its M or N tiles' count).
int tc_tiles_dim(const Kernel& k, TcPart part) {
  const auto lanes = std::find_if(k.dims.begin(), k.dims.end(), [&](const Dim& d) { return d.tc == part; });
  return last_global_on(k, lanes->axis);
}

// A sum of half products on a GPU's matrix unit: TC on the first reduce dim that a unit's K divides
// (the largest K first), then each warp a tile of 4 by 8 of the unit's tiles (64x64 outputs), 2 warps
// a workgroup side by side along N, and the tiles of two steps of the unit a turn staged in local
// memory in two halves. On an H100 (`:opt`, `:time 0 20`) the 4096 half matmul took, from global
// memory, 1.96 ms with tiles of 4 by 4, 1.56 ms with 4 by 8, 1.62 ms with 8 by 8, 1.53 ms with 8 by 4
// (rows by columns) and 1.22 ms with 4 by 8 unrolled by 2 in 2x2 warps; staged, 0.71 ms with 2 warps
// along N (0.68 with DOUBLE, in two runs), 0.69 with 4 (0.70 with DOUBLE), 0.76 with 4 steps a turn,
// 0.84 with 8 warps, 0.80 with 4 along M, 0.99 with 2x2 (a launch id then numbers both warp dims,
// and each tile holds a copy per warp of the other dim).
// Null where no unit takes the reduce.
std::optional<Kernel> tensor_core_opts(const Kernel& k, const Target& target) {
  const int64_t tc_staged_steps = 2;
  if (!target_has(target, OptNeeds::MatrixUnits)) return std::nullopt;
  const int r = static_cast<int>(std::find_if(k.dims.begin(), k.dims.end(), [](const Dim& d) { return splittable(d, DimRole::Reduce); }) -
                                 k.dims.begin());
  if (r == static_cast<int>(k.dims.size())) return std::nullopt;
  for (const MatrixUnit& unit : target.matrix_units) {
    Kernel out = k;
    try {
      out = apply_opt(out, {OptOp::Tc, r, unit.k}, target);
    } catch (const Error&) {
      continue;  // this unit does not take the reduce
    }
    // a dim smaller than its tile is upcast wholly, and then has no piece left for the workgroup
    for (const auto& [part, upcast, local] : {std::tuple{TcPart::NLanes, 8, 2}, std::tuple{TcPart::MLanes, 4, 1}}) {
      if (const int d = tc_tiles_dim(out, part); d >= 0 && largest_divisor_upto(out.dims[d].size, upcast) >= 2)
        out = apply_opt(out, {OptOp::Upcast, d, largest_divisor_upto(out.dims[d].size, upcast)}, target);
      if (const int d = tc_tiles_dim(out, part); d >= 0 && local > 1 && out.dims[d].size % local == 0 && out.dims[d].size > local)
        out = apply_opt(out, {OptOp::Local, d, local}, target);
    }
    if (const int r = last_dim_with(out, DimRole::Reduce); r >= 0 && out.dims[r].size % tc_staged_steps == 0)
      out = apply_opt(out, {OptOp::Stage, r, tc_staged_steps}, target);
    // a staged loop of more than one turn
    if (const int r = last_dim_with(out, DimRole::Reduce); r >= 0 && out.dims[r].axis == out.stage_axis)
      out = apply_opt(out, {OptOp::Double, r, 2}, target);
    return out;
  }
  return std::nullopt;
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

Kernel default_opts(const Kernel& k, const Target& target) {
  Kernel out = k;
  int64_t work = 1;
  for (const Dim& d : k.dims) work *= d.size;
  const bool reduces = k.first_reduce < static_cast<int>(k.full_shape.size());
  // the outermost output dim is split over the cores when there is enough work to pay for threads
  const bool threads = target_has(target, OptNeeds::CpuCores) && work >= (1 << 16);
  // A CPU's vector registers: a register tile row and the most values kept in registers.
  const int64_t lanes = std::max(4, target.float_lanes());
  // A GPU workgroup of a reduce is 16x4 threads, of a register-tiled one (a matmul) 32x4: 64 threads
  // were faster than 256 for the 4096 matmul on an H200 (20.2 against 17.9 TFLOPS), and on an H100 32x4
  // took 4.81 ms against 5.81 ms for 16x4, 5.85 ms for 16x8 and 4.94 ms for 16x4x4 (`:opt`, `:time 0 20`).
  // An element-wise one fills it along x.
  const int64_t reduce_local_x = 16, tile_local_x = 32, reduce_local_y = 4, elementwise_local = 256;
  // A kernel that walks its rows several times splits only its output dims (over workgroups or cores).
  const bool rows_whole = k.walks_rows_again();
  if (std::optional<Kernel> tc = tensor_core_opts(k, target)) return *tc;
  // A reduce whose output dims are broadcast by its loads (a matmul): a register tile (rows by vector
  // registers of columns) reuses every load across the tile.
  int gpu_tile_columns = -1;  // the axis of a GPU tile's columns
  int cpu_tile_rows = -1;     // the axis of a CPU tile's rows
  int cpu_tile_columns = -1;  // and of its columns
  bool column_reduce = false;  // a CPU reduce down columns, its neighbouring outputs in vectors
  if (reduces && !rows_whole) {
    std::vector<int> tile;
    for (int i = static_cast<int>(out.dims.size()) - 1; i >= 0 && tile.size() < 2; i--)
      if (splittable(out.dims[i], DimRole::Global) && broadcast_by_a_load(out, out.dims[i].axis)) tile.push_back(i);
    if (tile.size() == 2) {
      // A GPU thread's wide upcast of columns would scatter its neighbours' loads: 4 columns by 8 rows
      // there (on an H200 the 4096 matmul went from 12.2 to 19.6 TFLOPS with 8 rows instead of 4).
      // Each tile dim is padded so that the tile (and a GPU's workgroup after it) divides it.
      if (target.gpu) {
        gpu_tile_columns = out.dims[tile[0]].axis;
        upcast_tile_dim(out, tile[0], {4}, tile_local_x, target);
        upcast_tile_dim(out, tile[1], {8, 4}, reduce_local_y, target);
      } else {
        // columns: one vector register, then the tile's vectors of them side by side (where the dim
        // allows after padding); rows: the tile's, split over the cores after when they are outermost
        const RegisterTile rt = cpu_register_tile(target);
        std::vector<int64_t> columns{rt.lanes};
        for (int64_t a = rt.lanes / 2; a >= 4; a /= 2) columns.push_back(a);
        const bool rows_threaded = threads && tile[1] == 0;
        const size_t before = out.dims.size();
        upcast_tile_dim(out, tile[0], columns, rt.vectors, target);
        if (out.dims.size() > before && out.dims[tile[0]].size % rt.vectors == 0 && out.dims[tile[0]].size > rt.vectors)
          out = apply_opt(out, {OptOp::Upcast, tile[0], rt.vectors}, target);
        upcast_tile_dim(out, tile[1], {rt.rows, 4}, rows_threaded ? target.cores : 1, target);
        cpu_tile_rows = out.dims[tile[1]].axis;
        cpu_tile_columns = out.dims[tile[0]].axis;
      }
    }
  }
  // A column reduce (the reduce walks down rows, the innermost output dim runs along memory): each step
  // of the reduce reads neighbouring outputs' elements as vectors, one register of the target's lanes
  // and then 8 of them (else 4), so that it uses whole cache lines instead of walking down each column
  // alone. 8 accumulators leave half of AVX2's 16 registers free; on the 2-core AVX-512 VM the
  // 4096x4096 column sum took 1.41 ms with 8 against 1.74 ms with 4 (16: 1.44 ms).
  if (reduces && !target.gpu && !rows_whole && upcast_product(out) == 1) {
    const int g = last_dim_with(out, DimRole::Global), r = last_dim_with(out, DimRole::Reduce);
    if (g >= 0 && r >= 0 && out.dims[g].axis == out.first_reduce - 1 && out.dims[g].size % lanes == 0 &&
        out.dims[g].size > lanes && loads_in_order(out, out.dims[g].axis) && !loads_in_order(out, out.dims[r].axis)) {
      out = apply_opt(out, {OptOp::Upcast, g, lanes}, target);
      column_reduce = true;
      for (const int64_t vectors : {8, 4})
        if (out.dims[g].size % vectors == 0 && out.dims[g].size > vectors) {
          out = apply_opt(out, {OptOp::Upcast, g, vectors}, target);
          break;
        }
    }
  }
  // A permuting copy (a transpose): a tile of outputs along the innermost dim by a cache line of the
  // transposed load along its own, so that each of the load's lines is read once, whole, and the
  // expand pass transposes the tile in registers. Where one vector is a whole line (AVX-512) the tile
  // is square, a line each way, so that each store writes a whole line and can stream past the cache:
  // on the 2-core AVX-512 VM the 4096x4096 float32 transpose took 3.3-3.5 ms so against 4.9-5.1 ms for
  // 8 outputs by 16 with plain stores (the copy loop: 3.6 ms). Elsewhere 8 outputs, whose 8 rows of
  // the load share one set of L1 (8 ways) where the rows are a power of two apart.
  // On a GPU the threads of a workgroup take neighbouring outputs (below), so their stores are
  // coalesced, and each thread takes 16 outputs along the other dim, which its load reads in order: on
  // an H100 the 8192x8192 float32 transpose went from 990 to 1916 GB/s (PyTorch's: 962).
  const int64_t cache_line = 64;
  int transpose_rows = -1;  // a CPU transpose's axis that walks the load's rows
  if (!reduces) {
    const int inner = last_dim_with(out, DimRole::Global);
    const auto [other, item] = inner < 0 ? std::pair<int, int64_t>{-1, 1} : transposed_dim(out, inner);
    const int64_t line = target.gpu ? 16 : std::min<int64_t>(16, cache_line / item);
    const int64_t across = target.float_lanes() * 4 == cache_line ? line : 8;
    if (other >= 0 && out.dims[inner].size % across == 0 && out.dims[inner].size > across &&
        out.dims[other].size % line == 0 && out.dims[other].size > line) {
      if (!target.gpu) {
        out = apply_opt(out, {OptOp::Upcast, inner, across}, target);
        transpose_rows = out.dims[inner].axis;
      }
      out = apply_opt(out, {OptOp::Upcast, other, line}, target);
    }
  }
  // A reduce along memory (a row sum, a dot product), with nothing upcast yet: a vector's lanes of its
  // innermost piece become the lanes of the accumulator (core/codegen/expand.cpp), each lane summing
  // its own share of the row from whole vector loads; the unroll by 4 below then keeps 4 of them in
  // flight. On the 2-core AVX-512 VM the 4096x4096 row sum went from 4.1 ms (4 rows upcast, scalar
  // loads) to 1.35 ms. A kernel that walks its rows several times (softmax) gets the lanes in every
  // walk, its store over the rows included.
  if (reduces && !target.gpu && upcast_product(out) == 1 && vector_values(out)) {
    const int64_t vlanes = std::min<int64_t>(lanes, target.vector_width);
    const int r = last_dim_with(out, DimRole::Reduce);
    if (vlanes >= 2 && r >= 0 && out.dims[r].axis == static_cast<int>(out.full_shape.size()) - 1 &&
        out.dims[r].size % vlanes == 0 && out.dims[r].size > vlanes && loads_in_order(out, out.dims[r].axis))
      out = apply_opt(out, {OptOp::Unroll, r, vlanes}, target);
  }
  // A GPU matmul's tile: 16 steps of the reduce a turn, their tiles of both operands staged in local
  // memory, which the workgroup's threads copy with float4 loads (core/codegen/stage.cpp); the
  // workgroup is then 32x8 threads. On an H100 the 4096 matmul took 3.45 ms against 3.86 ms unrolled
  // by 4 from global memory (8 steps: 3.51 ms; 32 steps: 5.0 ms; 16x16 threads: 3.46 ms).
  // A reduce dim that 16 does not divide is padded to a multiple of it where that may be. Half that the
  // target keeps only in its buffers is not staged (core/codegen/stage.cpp): such a matmul is unrolled.
  const int64_t staged_steps = 16, staged_local_y = 8;
  bool half_in_buffers = false;
  walk(out.ast, [&](const AstNode& n) { half_in_buffers = half_in_buffers || (n.op == AstOp::Load && n.dtype == DType::Float16); });
  half_in_buffers = half_in_buffers && !target.half_arithmetic;
  if (const int r = last_dim_with(out, DimRole::Reduce);
      r >= 0 && gpu_tile_columns >= 0 && target_has(target, OptNeeds::LocalMemory) && !half_in_buffers) {
    if (!unsafe_to_pad_reduce(out)) pad_to_multiple(out, r, staged_steps, target);
    if (out.dims[r].size % staged_steps == 0 && out.dims[r].size > staged_steps)
      out = apply_opt(out, {OptOp::Stage, r, staged_steps}, target);
  }
  // Unroll a reduce dim: wholly when it is tiny, else by 4.
  if (const int r = last_dim_with(out, DimRole::Reduce); r >= 0 && !rows_whole && out.stage_axis < 0 && upcast_product(out) < 64) {
    const int64_t n = out.dims[r].size;
    if (n <= 8 && n > 1) out = apply_opt(out, {OptOp::Unroll, r, n}, target);
    else if (n % 4 == 0) out = apply_opt(out, {OptOp::Unroll, r, 4}, target);
  }
  // A GPU that moves aligned vectors: each thread of an element-wise kernel takes 4 neighbouring
  // elements as one vector, when every load reads them in order (or broadcasts them).
  if (target.gpu && target.vector_width >= 4 && !reduces && vector_values(out)) {
    const int g = last_dim_with(out, DimRole::Global);
    if (g >= 0 && out.dims[g].axis == out.first_reduce - 1 && out.dims[g].size % 4 == 0 &&
        out.dims[g].size > 4 && loads_in_order(out, out.dims[g].axis))
      out = apply_opt(out, {OptOp::Upcast, g, 4}, target);
  }
  // Upcast the innermost output dims into registers, up to one vector register's lanes: small ones
  // wholly, larger ones by what the register still holds where that divides them (one 16-lane vector
  // with AVX-512: the exp chain of 4096x4096 took 3.7 ms against 5.5 ms as 4 by 4, on the 2-core
  // AVX-512 VM), else by 4. Not on a GPU, where neighbouring threads reading neighbouring elements is
  // what makes loads fast.
  for (int pass = 0; pass < 2 && !target.gpu && !rows_whole && upcast_product(out) < lanes; pass++) {
    const int g = last_dim_with(out, DimRole::Global);
    if (g < 0) break;
    const int64_t n = out.dims[g].size, room = lanes / upcast_product(out);
    const int64_t amt = n <= 4 ? n : n % room == 0 && n > room ? room : (n % 4 == 0 ? 4 : 1);
    if (amt < 2 || upcast_product(out) * amt > lanes) break;
    out = apply_opt(out, {OptOp::Upcast, g, amt}, target);
  }
  // A GPU workgroup: threads along the innermost output dim (neighbours read neighbours), then along
  // the next, within the device's limit.
  if (target_has(target, OptNeeds::LocalMemory)) {
    int64_t threads = 1;
    // A kernel that walks its rows several times (a softmax): a workgroup per row, as many threads as
    // it holds splitting every walk, so that each walk reads the row coalesced and the row stays in
    // the cache between walks.
    if (const int r = last_dim_with(out, DimRole::Reduce); r >= 0 && rows_whole) {
      std::vector<int64_t> amounts;
      for (int64_t g = target.max_local; g >= 8; g /= 2) amounts.push_back(g);
      threads = group_reduce(out, r, amounts, threads, k.row_passes, target);
    }
    const bool tiled = std::any_of(out.dims.begin(), out.dims.end(), [](const Dim& d) { return d.role == DimRole::Upcast; });
    int placed = 0;
    for (int i = static_cast<int>(out.dims.size()) - 1; i >= 0 && placed < 2; i--) {
      if (!splittable(out.dims[i], DimRole::Global)) continue;
      const int64_t want = placed ? (out.stage_axis >= 0 ? staged_local_y : reduce_local_y)
                           : !reduces ? elementwise_local : tiled ? tile_local_x : reduce_local_x;
      const int64_t amt = largest_divisor_upto(out.dims[i].size, std::min<int64_t>(want, target.max_local / threads));
      placed++;
      if (amt < 2) continue;
      out = apply_opt(out, {OptOp::Local, i, amt}, target);
      threads *= amt;
    }
    // A matmul's thread then takes a second group of 4 columns, the workgroup's width of columns away:
    // 8 by 8 outputs a thread, each group one float4 load that the warp reads coalesced. On an H100 the
    // 4096 matmul went from 4.81 to 3.86 ms (35.6 TFLOPS; 3.81 ms with workgroups of 32x2 threads, 8.6
    // ms with 4 groups, 6.7 ms with 16 rows instead), `:opt` and `:time 0 20`.
    for (int i = static_cast<int>(out.dims.size()) - 1; i >= 0 && gpu_tile_columns >= 0; i--)
      if (splittable(out.dims[i], DimRole::Global) && out.dims[i].axis == gpu_tile_columns) {
        if (out.dims[i].size % 2 == 0) out = apply_opt(out, {OptOp::Upcast, i, 2}, target);
        break;
      }
    // A reduce without a register tile (sums, maxima, not a matmul): the workgroup's threads also split
    // each reduce, each leaving its partials (at most 8 bytes each) in local memory: along memory as
    // many as the workgroup holds of 32, 16 or 8, down columns 8 (whose threads already read
    // neighbouring columns). BEAM chose these on an H100, and the default takes them: the 8192x8192
    // row sum went from 790 to 2870 GB/s, the stages of a 64M sum from 910 to 2560, the column sum
    // from 970 to 2560 with 8 threads per column (1770 with 16); PyTorch: 2490, 2420, 2430.
    if (const int r = last_dim_with(out, DimRole::Reduce); r >= 0 && !rows_whole && !tiled) {
      const std::vector<int64_t> amounts = loads_in_order(out, out.dims[r].axis) ? std::vector<int64_t>{32, 16, 8}
                                                                                 : std::vector<int64_t>{8};
      group_reduce(out, r, amounts, threads, upcast_product(out), target);
    }
  }
  // Split the outermost output dim over the cores; where no output dim is left (a full sum), the
  // outermost reduce dim, each core reducing one block and the cores combining their partial results
  // at the end, so that a long reduce is one kernel.
  if (threads) {
    const auto first = [&](DimRole role) {
      return std::find_if(out.dims.begin(), out.dims.end(), [&](const Dim& d) { return splittable(d, role); });
    };
    const bool outputs = std::any_of(out.dims.begin(), out.dims.end(), [](const Dim& d) { return d.role == DimRole::Global; });
    const auto split = outputs                                ? first(DimRole::Global)
                       : rows_whole || !target.cores_combine ? out.dims.end()
                                                             : first(DimRole::Reduce);
    if (split != out.dims.end()) {
      const int64_t amt = largest_divisor_upto(split->size, target.cores);
      if (amt >= 2) out = apply_opt(out, {OptOp::Thread, static_cast<int>(split - out.dims.begin()), amt}, target);
    }
  }
  // BLOCK on a CPU: a dim walked in blocks, one loop around all the others, so that each block reads a
  // piece of the input that stays in cache; of a long reduce, the outputs keep their partial results
  // between blocks.
  //  - A tile's reduce whose steps of the tile's rows (of the operand they broadcast, which every tile
  //    along those rows reads again) outgrow L1: blocks whose rows stay in half of L1 while the tiles
  //    sweep the other operand. On the 2-core AVX-512 VM (L1d 32 KiB, 8 rows a tile) the 2048 matmul
  //    went from 255 ms to 85 ms with blocks of 512 steps (64, 256 and 1024 alike within the noise).
  //    And one whose steps of the other operand's rows (which every tile of rows reads again) outgrow
  //    L2: blocks whose rows of it stay in half of L2. An AVX2 tile (4 rows: half the flops per
  //    byte of the other operand that AVX-512's 8x32 does) needs it most: under TINYREPL_ISA=avx2 on
  //    the same VM (L2 1 MiB) the 2048 matmul took 1560 ms whole, 494 with blocks of 1024, 360 of
  //    256 and 512, 314 of 128 and 276 of 64; the 1024 one 50 ms whole, 43 of 512, 34 of 128 and 38
  //    of 64 (the fastest of 3 each, in turn). AVX-512's 1024 matmul: a median of 19.5 ms whole and
  //    19.3 in blocks of 128 (6 runs each, in turn, in an hour when the VM was slow), its 2048 one 136
  //    ms in blocks of 512 and 142 of 64 (the fastest of 3), and at a quiet moment 85-88 ms of 512,
  //    90-100 of 256 and 84-90 of 64 (the fastest of 6, four times each, in turn).
  //  - A column reduce: blocks of 8 rows, which the output tiles read side by side as 8 streams. On
  //    the same VM the 4096x4096 column sum took 1.52 ms against 2.65 ms whole (16 rows: 1.69 ms, 32:
  //    1.96 ms, 64: 1.94 ms; the fastest of 30 runs, twice).
  //  - A transpose (not a reduce): blocks of the dim that walks the load's rows, as many rows as L1
  //    holds a line of each, so that the tiles of the next lines along those rows find them in the
  //    cache. On the same VM, in a C harness of the 4096x4096 kernel (fastest of 15, twice), 5.64 and
  //    5.72 ms against 6.84 and 6.32 ms whole (blocks of an eighth of L1: 6.0 ms; of four times L1: 8.5 ms).
  const int64_t column_block = 8;
  if (const int g = transpose_rows < 0 ? -1 : last_global_on(out, transpose_rows); g >= 0 && target.caches.l1d > 0) {
    const int64_t steps = target.caches.l1d / (cache_line * upcast_along(out, transpose_rows));
    if (out.dims[g].size % steps == 0 && out.dims[g].size > steps) out = apply_opt(out, {OptOp::Block, g, steps}, target);
  }
  if (const int r = last_dim_with(out, DimRole::Reduce); r >= 0 && !target.gpu) {
    int64_t steps = 0;
    if (cpu_tile_rows >= 0) {
      int64_t item = 1;
      walk(out.ast, [&](const AstNode& n) { item = n.op == AstOp::Load ? std::max<int64_t>(item, itemsize(n.dtype)) : item; });
      // where the reduce's steps of `bytes` each outgrow `cache`: the most steps (a power of two) in half of it
      const auto fit = [&](int64_t bytes, int64_t cache) {
        if (cache <= 0 || out.dims[r].size * bytes <= cache) return;
        int64_t half = 1;
        while (2 * half * bytes <= cache / 2) half *= 2;
        steps = steps > 0 ? std::min(steps, half) : half;
      };
      fit(upcast_along(out, cpu_tile_rows) * item, target.caches.l1d);
      fit(out.full_shape[static_cast<size_t>(cpu_tile_columns)] * item, target.caches.l2);
    }
    // a column reduce of at least 8 blocks
    if (column_reduce && out.dims[r].size >= 8 * column_block) steps = column_block;
    if (steps > 0 && out.dims[r].size % steps == 0) {
      try {
        out = apply_opt(out, {OptOp::Block, r, steps}, target);
      } catch (const Error&) {
        // the output is not the reduce's dtype (a half matmul's float sum): one walk
      }
    }
  }
  return out;
}

}  // namespace tr
