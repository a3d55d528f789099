#pragma once
// What each primitive computes on one element. Constant folding in the linearizer and the
// reference evaluator both use this, and every renderer spells the same semantics:
// integer IDIV and MOD truncate (as C does) and give 0 for a zero divisor; MAX(a, b) is
// (a < b ? b : a); float results are rounded to their dtype after every operation.
#include <vector>

#include "core/ir/dtype.h"
#include "core/ir/ops.h"

namespace tr {

// `out` is the result dtype; `in` the dtype of the sources (of the last two for WHERE).
ConstValue exec_alu(Op op, DType out, DType in, const std::vector<ConstValue>& srcs);

}  // namespace tr
