#pragma once
// The linear IR: a numbered list of UOps that every renderer turns into source.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/dtype.h"
#include "core/ir/ops.h"
#include "core/ir/target.h"

namespace tr {

// Kinds that only the lowering passes' graph holds (core/codegen/): none reaches a renderer.
//   Sink: the graph's root, whose sources are the kernel's stores and buffers.
// Wmma: one step of a GPU's matrix unit: a warp's tiles multiplied and added into its accumulator tile,
// each thread holding its elements of each tile (core/codegen/tensor_cores.h says which).
// Shuffle: a vector whose lanes are lanes of two vectors of one type, as one instruction picks them (a
// CPU's transpose of a tile in registers, core/codegen/expand.cpp).
enum class UOpKind : uint8_t {
  DefineGlobal, DefineVar, DefineLocal, DefineAcc, Const, Special, Range, EndRange, Load, Store, Alu, Cast,
  Assign, If, EndIf, Barrier, Vectorize, Gep, Shuffle, Wmma, Sink,
};

// Which launch id a SPECIAL is: a workgroup's (or, without local ids, a thread's) global id, a thread's
// id in its workgroup, or the CPU core that runs a THREAD dim.
enum class LaunchKind : uint8_t { Global, Local, Core };

// What a RANGE walks: an output dim the CPU loops over, a reduce dim, the dims that opts unroll
// (before the expand pass turns them into copies or vector lanes), or a GROUP's partial results.
enum class RangeKind : uint8_t { Loop, Reduce, Upcast, Unroll, GroupReduce, Block };

// Typed fields: each is read only by the kinds its comment names.
// Sources: Range {lo, hi}; Load {buffer, index, [alternative, gate]}; Store {buffer, index, value, [gate]};
// Shuffle {a, b};
// Assign {accumulator, value, [ranges it closes]}; Barrier {the local stores it waits for};
// Wmma {this thread's elements of A, then of B, then the accumulator}.
struct UOp {
  UOpKind kind{};
  DType dtype = DType::Int32;
  int vec = 1;                    // vector width of the value (1 for scalars)
  bool ptr = false;               // DefineGlobal, DefineLocal: a pointer to dtype
  std::vector<int> srcs{};
  Op alu = Op::Add;               // Alu
  ConstValue value = int64_t{0};  // Const: its value; DefineAcc: the value it starts from
  int buffer = -1;                // DefineGlobal: the kernel argument's position
  bool writes = false;            // DefineGlobal: the kernel stores into it
  int64_t size = 0;               // DefineLocal: its elements; Special: how many ids there are; DefineVar: its largest value
  LaunchKind launch{};            // Special; DefineLocal, Barrier: Local, or Core where a CPU's cores share it
  int axis = 0;                   // Special: the launch axis (0 = x, 1 = y, 2 = z)
  RangeKind range{};              // Range
  int dim = -1;                   // Range: the kernel dim it walks; loops nest in the order of their dims
  int lane = 0;                   // Gep
  // Shuffle: per lane of the result, the lane it takes of its sources side by side (a's lanes, then b's)
  std::vector<int> lanes{};
  // Store: a non-temporal store, whose line goes to memory without being read into the cache first
  // (a renderer that has no such store writes a plain one)
  bool streams = false;
  MatrixUnit unit{};              // Wmma: the matrix unit's shape and types
  int number = 0;                 // DefineLocal, DefineAcc, Special, Range: its number among its kind, for its name
  std::string name{};             // DefineVar: the Variable's name (a scalar argument after the buffers)
};

// "data0", "temp0", "acc1", "gidx0", "lidx1", "core_id", "ridx0", "upidx0", "unidx0", "gridx0"
std::string uop_name(const UOp& u);
size_t uop_hash(const UOp& u);  // structural: the fields above, sources by their index
bool same_uop(const UOp& a, const UOp& b);  // every field equal, a constant to the bit (-0.0 is not 0.0)

std::string_view uop_kind_name(UOpKind k);  // "DEFINE_GLOBAL", ...
std::string uop_dtype_str(const UOp& u);    // "ptr.int", "float", "float4", ""

// global[a] is the range of the SPECIAL gidx on launch axis a: the number of workgroups on that axis
// (OpenCL get_group_id, CUDA blockIdx) when the kernel has local dims, else the number of threads
// (get_global_id, blockIdx*blockDim+threadIdx). local[a] is the range of lidx on axis a. So a CUDA
// grid is `global` blocks of `local` threads, and OpenCL's global work size is global[a]*local[a].
// On the CPU, global[0] is the number of THREAD calls (core_id).
struct LaunchDims {
  std::array<int64_t, 3> global{1, 1, 1};
  std::array<int64_t, 3> local{1, 1, 1};
  // Per axis, the Variable (its position among the kernel's) whose value n makes the axis
  // global[a] * (global_scale[a] * n + global_offset[a]) at launch; -1 where the axis has a fixed size.
  std::array<int, 3> global_var{-1, -1, -1};
  std::array<int64_t, 3> global_scale{1, 1, 1}, global_offset{0, 0, 0};
};
// The launch for these values of the kernel's Variables: each symbolic axis gets its size.
LaunchDims launch_for(const LaunchDims& dims, const std::vector<int32_t>& vars);

// The UOps as one lowering pass left them; DEBUG 6 and `:uops K all` print each in turn.
struct PassSnapshot {
  std::string pass;  // the pass's name, as its file in core/codegen/ is named
  std::vector<UOp> uops;
};

struct UOpProgram {
  std::string name;
  std::vector<UOp> uops;
  // Per UOp, the row of the kernel's AST (as print_ast numbers its rows) it was lowered from: a load's
  // index arithmetic comes from its LOAD, an accumulator from its REDUCE; a node that several rows make
  // (a shared constant) keeps the first one's. -1 where no row made it (a launch id, a loop, a barrier),
  // and for a program that no AST lowered.
  std::vector<int> ast_rows;
  std::vector<PassSnapshot> passes;  // after each lowering pass, in order, where asked (codegen's keep_passes)
  LaunchDims dims;
  int64_t flops = 0;  // estimated from the value ALUs (a MULACC two) and the trip counts around them
  int64_t bytes = 0;  // estimated bytes moved: what each load and the store reach (core/realize/footprint.h)
  std::vector<DType> globals;  // dtype of each buffer, by DEFINE_GLOBAL index
  std::vector<std::string> vars;  // each Variable's name, in argument order (after the buffers)
};

// Per buffer of p (by DefineGlobal .buffer, at least p.globals.size() of them): whether the kernel stores into it.
std::vector<bool> written_buffers(const UOpProgram& p);

// The memory that the cores of a CPU kernel share (DefineLocal of launch Core), in the order the kernel
// takes it as arguments after core_id; where there is any, core_sync and core_ctx follow, the barrier
// that every core calls and its state. The device allocates it for each launch and runs every core at once.
std::vector<UOp> core_locals(const UOpProgram& p);

// One row per UOp: "   0 DEFINE_GLOBAL  : ptr.int        []          (0, 'data0', True)".
std::string print_uops(const std::vector<UOp>& uops);

}  // namespace tr
