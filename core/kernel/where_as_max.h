#pragma once
// `where(a < x, x, a)` is `max(a, x)`: every backend spells max(a, x) as `a < x ? x : a`, the same
// value for every x (nan and -0.0 included). Kernel::from_ast rewrites it so, which takes the bool
// out of a relu, and a kernel without bools gets vectors (vector_values): a matmul with a relu after
// it keeps its vector register tile.
#include "core/kernel/ast.h"

namespace tr {

AstRef where_as_max(const AstRef& ast);

}  // namespace tr
