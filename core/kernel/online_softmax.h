#pragma once
// The online softmax: a sum over the rows that reads a maximum over the same rows only through
// exp2((x - max) * c), where x is what the maximum reduces and c > 0, can be computed in the maximum's
// own walk of the rows. Each step keeps the largest value so far and rescales what the sum holds by
// exp2((old max - new max) * c) when the maximum grows. Factors of the sum that do not vary along the
// rows (softmax's 1 / sum of exps) are multiplied in once, after the walk. So softmax(x) @ v, which
// walks each row three times as max, sum of exps and the weighted sum, walks it once. A reduce whose
// axes follow the kernel's dims (a step reduce: attention's scores, a sum over the head dim for each
// key) is a value of each step here, like a load.
#include <optional>
#include <vector>

#include "core/kernel/ast.h"

namespace tr {

struct OnlineSum {
  const AstNode* sum;                // a REDUCE of Sum
  const AstNode* max = nullptr;      // the REDUCE of ReduceMax its exponent subtracts; null for a sum that has none
  const AstNode* exponent = nullptr;  // exp2((x - max) * c)
  ConstValue c = 0.0;                 // the exponent's positive scale
  std::vector<AstRef> per_step{};     // its factors that vary along the rows: multiplied into each step
  std::vector<AstRef> after{};        // its factors constant along the rows: multiplied once, after the walk
};

// Every reduce of the kernel that reads another reduce's result, written as an online sum; nothing
// when one of them cannot be (it is not a sum, reads a maximum otherwise than in the exponent, or
// multiplies a varying factor that reads a reduce), or when none carries the exponent across a factor
// that varies along the rows (a plain softmax keeps its walks: it gains nothing from rescaling). The
// AST is a kernel's: reduce axes are those from `first_reduce` on.
std::optional<std::vector<OnlineSum>> online_sums(const AstRef& ast, int first_reduce);

}  // namespace tr
