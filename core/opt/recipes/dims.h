#pragma once
// What the recipes ask of a kernel's dims and the small steps they share: find a dim, pad it, upcast
// it, split a reduce over a workgroup.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/ir/target.h"
#include "core/kernel/kernel.h"

namespace tr {

// A GPU workgroup: 16x4 threads for a reduce, 32x4 for a register tile, 32x8 for a staged one, 256
// along x for element-wise work (core/opt/NOTES.md).
constexpr int64_t kReduceLocalX = 16, kTileLocalX = 32, kReduceLocalY = 4, kStagedLocalY = 8, kElementwiseLocal = 256;
constexpr int64_t kCacheLine = 64;

// The recipes split only dims of a known size: a symbolic dim's size is its Variable's largest
// value, and the kernel serves every value of it, so it keeps the dim whole.
bool splittable(const Dim& d, DimRole role);
int last_dim_with(const Kernel& k, DimRole role);    // -1 where none is
int first_dim_with(const Kernel& k, DimRole role);   // -1 where none is
int last_global_on(const Kernel& k, int axis);       // the innermost output dim on the axis; -1 where none is
int64_t largest_divisor_upto(int64_t n, int64_t limit);
int64_t upcast_product(const Kernel& k);             // the copies that upcasts and unrolls make (TC's apart)
int64_t upcast_along(const Kernel& k, int axis);     // the copies that the axis's upcasts make
// The source's size as the compiler sees it: how many ALU ops one copy of the kernel's body holds (each
// node of the AST once), and how many copies the upcasts and unrolls make of it, the lanes of a
// whole-vector upcast counting as one copy.
int64_t body_ops(const Kernel& k);
int64_t body_copies(const Kernel& k, const Target& t);
// Whether some load reads the same element for every value of this axis: upcasting it reuses that load.
bool broadcast_by_a_load(const Kernel& k, int axis);
// A permuting copy's other side: an output dim (not the innermost one, `inner`) along which some load
// steps 1 element while it steps more than 1 along `inner`, and that load's element size; -1 when
// there is none.
std::pair<int, int64_t> transposed_dim(const Kernel& k, int inner);

// Pads output dim `dim` (still a whole axis) up to a multiple of `multiple` when it is not one, as
// long as the padding is at most a quarter of the dim (tinygrad's bound).
void pad_to_multiple(Kernel& k, int dim, int64_t multiple, const Target& target);
// Upcasts a tile dim by the first amount that fits: the first one after padding the dim to a multiple
// of it times `then_split` (the workgroup or cores that split it next), else any that divides it.
void upcast_tile_dim(Kernel& k, int dim, const std::vector<int64_t>& amounts, int64_t then_split, const Target& target);
// Splits reduce dim r over the first of `amounts` threads that divides it at least twice, fits the
// workgroup beside its `threads` and leaves each thread's `partials` results (at most 8 bytes each) in
// local memory that holds them; returns how many threads the workgroup has then. Not where the
// workgroup's threads run one after another (Target::workgroup_in_parallel).
int64_t group_reduce(Kernel& k, int r, const std::vector<int64_t>& amounts, int64_t threads, int64_t partials,
                     const Target& target);

}  // namespace tr
