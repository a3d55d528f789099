#pragma once
// A kernel ready to be lowered: its AST over a full shape (output dims first, reduce dims last) and
// the dims that opts have split and given roles (loops, threads, workgroup, unrolled).
#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "core/kernel/ast.h"
#include "core/opt/opt.h"
#include "core/ir/target.h"

namespace tr {

// Block: the outer piece of a dim that BLOCK walks in blocks, one loop around all the others.
enum class DimRole : uint8_t { Thread, Global, Local, Reduce, Group, Upcast, Unroll, Block };
std::string_view dim_role_name(DimRole r);

// Which piece of a matrix unit's tiles a dim is, where the TC opt made it (core/codegen/tensor_cores.h):
// the warp's lanes along M and N (workgroup dims), the elements a thread holds along M and N
// (upcasts), and the unit's K (unrolled into one step of the unit).
enum class TcPart : uint8_t { None, MLanes, NLanes, MElems, NElems, K };
std::string_view tc_part_name(TcPart p);  // "", "the unit's rows: lanes (g)", ...

// A piece of one axis of the full shape: the axis index contributes var * stride.
struct Dim {
  int axis;
  int64_t size;
  int64_t stride;
  DimRole role;
  ExprRef sym = nullptr;  // the symbolic size (a Variable, or n + 1, 2 * n; size is its largest value), null for a number
  TcPart tc = TcPart::None;
};

struct Kernel {
  AstRef ast;                  // trackers reshaped to full_shape (the store's has 1 on reduce axes)
  Shape full_shape;
  int first_reduce;            // axes [first_reduce, ndim) are reduced
  std::vector<Dim> dims;
  std::vector<Opt> opts;
  // Walks of each row: 1 for a plain reduce; one more for each reduce that reads another's result
  // (var: its mean, then its squares) and for a store over the rows (softmax: max, sum, output).
  int row_passes = 1;
  std::vector<ExprRef> vars;   // the Variables of its symbolic dims, by name: scalar arguments after the buffers
  std::optional<MatrixUnit> tc;  // the matrix unit whose steps compute the reduce (the TC opt)
  int stage_axis = -1;  // STAGE: the reduce axis per whose steps the shared loads' tiles go through local memory
  bool stage_halves = false;  // DOUBLE: each staged tile has two halves, this turn's and the next's
  // Its sums that read a maximum over the rows are computed in one walk with it, rescaled as the
  // maximum grows (core/kernel/online_softmax.h): attention's softmax(q @ k^T) @ v.
  bool online_softmax = false;

  // Moves reduce axes last and merges adjacent axes that every tracker allows.
  static Kernel from_ast(const AstRef& ast);
  int64_t output_size() const;
  bool walks_rows_again() const { return row_passes > 1; }
  std::string base_name() const;  // "r_2", "E_4_4": the prefix and the sizes of the dims in order
};

// Whether every value of the kernel has a dtype the linearizer makes vectors of (float32, float64,
// int32, int64): the condition for its innermost upcast to become one vector value.
bool vector_values(const Kernel& k);

// Whether every load steps 0 or 1 elements along axis of the full shape (reads it in order, or the
// same element throughout).
bool loads_in_order(const Kernel& k, int axis);

}  // namespace tr
