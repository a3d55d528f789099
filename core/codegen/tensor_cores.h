#pragma once
// How the 32 threads of a warp hold the tiles of a matrix unit. The TC opt splits the kernel's dims
// after the accumulator's layout, the same for every unit: M into the lanes' row g (0..7) and the
// thread's elements elems_m apart by 8, N into the lanes' column pair t (0..3) and the pair's two
// elements; the thread of lane position (g, t) holds the accumulator's rows g + 8*i and columns 2*t and
// 2*t + 1. The units differ in which hardware lane is the position (g, t), and in where a thread's
// elements of A and B lie; the tensor_cores pass reads A and B there by putting these positions in
// place of the dims' variables.
//   NVIDIA's mma.sync m16n8k16 and m16n8k8, half or bfloat16 into float (PTX ISA, "Matrix Fragments
//   for mma.m16n8k16"): lane 4*g + t; A's element i at row g + a_row[i], column 2*t + a_col[i]; B's
//   element i at row 2*t + b_row[i], column g.
//   Apple's simdgroup_matrix 8x8x8: lane L holds row 4*(L/16) + (L/2)%4, columns 2*((L/4)&2) + 2*(L%2)
//   and the one after, in each of its three matrices (the Morton order that Apple's compiler uses), so
//   A's elements lie along K from column 2*t and B's along N from row g.
#include <array>
#include <optional>
#include <utility>
#include <vector>

#include "core/kernel/ast.h"
#include "core/kernel/kernel.h"
#include "core/shape/symbolic.h"
#include "core/ir/target.h"

namespace tr {

enum class TcAxis : uint8_t { M, N };  // the lane's row g, or its column pair t

// Where one operand's elements lie: element i at K = (the lane's position along k_from) + k_at[i], and
// along the operand's other dim (M for A, N for B) at the lane's position along the other axis plus
// own_at[i]. A lane's position along M is g, along N 2*t.
struct TcOperand {
  TcAxis k_from;
  std::vector<int> k_at, own_at;
};

struct TcLayout {
  static constexpr int kWarp = 32;
  static constexpr int kLanesM = 8, kLanesN = 4;  // g, t
  static constexpr int kElemsN = 2;               // a column pair
  int elems_m;                                    // the accumulator's rows of a thread, kLanesM apart
  std::array<std::pair<TcAxis, int>, 5> lane_bits;  // bit i of the hardware lane adds its weight to g or t
  TcOperand a, b;

  // The lane's g or t, from the launch ids that number the lanes as 4*g + t (gl, tl).
  ExprRef lane_position(TcAxis axis, const ExprRef& gl, const ExprRef& tl) const;
};

// The layout of a unit; null for any other shape or types.
const TcLayout* tc_layout(const MatrixUnit& u);

// The two values whose products a reduce sums where it is what the unit computes: values of its
// input type, multiplied and summed in its accumulator's (CAST(acc, a*b) or CAST(acc, a)*CAST(acc, b));
// none otherwise.
std::optional<std::pair<AstRef, AstRef>> tc_products(const AstNode& reduce, const MatrixUnit& u);
// The TC lanes' g and t in place of the launch ids that number them as 4*g + t (dim_vars, per kernel
// dim, as the lowering made them): the position of the thread that the unit's layout gives that lane.
void tc_lane_vars(const Kernel& k, std::vector<ExprRef>& dim_vars);
// Whether some leaf under x reads a different element along the axis.
bool reads_along(const AstRef& x, int axis);

}  // namespace tr
