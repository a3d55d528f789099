#pragma once
// How the 32 threads of a warp hold the tiles of a matrix unit of the m16n8 family: mma.sync m16n8k16
// and m16n8k8 with half inputs and float accumulators (PTX ISA, "Matrix Fragments for mma.m16n8k16").
// The thread of lane 4*g + t (g in 0..7, t in 0..3) holds
//   the accumulator's element i at row g + 8*(i/2), column 2*t + i%2,
//   A's element i at row g + a_row[i], column 2*t + a_col[i],
//   B's element i at row 2*t + b_row[i], column g.
// The TC opt splits the kernel's dims after the accumulator's layout (M into g and i/2, N into t and
// i%2); the tensor_cores pass reads A and B at their own positions by putting these in place of the
// dims' variables.
#include <optional>
#include <utility>
#include <vector>

#include "core/ast.h"
#include "core/target.h"

namespace tr {

struct TcLayout {
  static constexpr int kWarp = 32;
  static constexpr int kLanesM = 8, kLanesN = 4;  // g, t
  static constexpr int kElemsM = 2, kElemsN = 2;  // the accumulator's i/2, i%2
  std::vector<int> a_row, a_col, b_row;
};

// The layout of a unit of the family; null for any other shape or types.
const TcLayout* tc_layout(const MatrixUnit& u);

// The two values whose products a reduce sums where it is what the unit computes: values of its
// input type, multiplied and summed in its accumulator's (CAST(acc, a*b) or CAST(acc, a)*CAST(acc, b));
// none otherwise.
std::optional<std::pair<AstRef, AstRef>> tc_products(const AstNode& reduce, const MatrixUnit& u);
// Whether some leaf under x reads a different element along the axis.
bool reads_along(const AstRef& x, int axis);

}  // namespace tr
