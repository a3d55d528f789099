#pragma once
// The default opts as a table of named recipes (core/opt/heuristic.cpp runs them in order). A recipe
// is a condition and a small function that applies opts to the plan's kernel; what one recipe found
// that a later one needs (the register tile's axes, a column reduce, a transpose's rows) is a field of
// the plan, never a flag passed around. Recipes read only the Target, never the machine at hand. The
// measurements behind their numbers are in core/opt/NOTES.md.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ir/target.h"
#include "core/kernel/kernel.h"

namespace tr {

struct OptPlan {
  Kernel kernel;  // the kernel with the opts applied so far
  // what the kernel is, before any opt
  bool reduces = false;
  bool rows_whole = false;  // it walks its rows several times, so only its output dims are split
  bool threads = false;     // a CPU with several cores and enough work to pay for threads
  int64_t lanes = 4;        // a CPU's float32 lanes in one vector register (at least 4)
  int64_t max_copies = 1;   // how many copies of the body the source may hold (kMaxSourceOps)
  // what earlier recipes chose, for later ones
  int gpu_tile_columns = -1;  // the axis of a GPU register tile's columns
  int cpu_tile_rows = -1;     // the axes of a CPU register tile's rows and columns
  int cpu_tile_columns = -1;
  bool column_reduce = false;  // a CPU reduce down columns, its neighbouring outputs in vectors
  int transpose_rows = -1;     // a CPU transpose's axis that walks the load's rows
  bool done = false;           // a recipe that takes the whole kernel (tensor cores): nothing after it
  // the recipes that ran, those that apply_opt refused and those whose copies would outgrow the source's
  // budget (both undone), with the reason
  std::vector<std::string_view> applied;
  std::vector<std::pair<std::string_view, std::string>> refused;
  std::vector<std::pair<std::string_view, std::string>> too_large;

  static OptPlan of(const Kernel& k, const Target& target);
};

// The ALU ops a kernel's source may hold, its body's ops times the copies upcasts and unrolls make of
// it: past this the C compiler's time outgrows the work (core/opt/NOTES.md, "Source size").
constexpr int64_t kMaxSourceOps = 2048;

struct Recipe {
  std::string_view name;
  bool (*applies)(const OptPlan& plan, const Target& target);
  void (*apply)(OptPlan& plan, const Target& target);
};

// In the order they run: tensor cores, register tile, column reduce, transpose, row lanes, GPU
// staging, unroll, GPU vectors, CPU upcast, workgroup, cores, cache blocks.
extern const Recipe kTensorCores, kRegisterTile, kColumnReduce, kTranspose, kRowLanes, kGpuStaging, kUnroll,
    kGpuVectors, kCpuUpcast, kWorkgroup, kCores, kCacheBlocks;

}  // namespace tr
