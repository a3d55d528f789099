#pragma once
// Dimension arguments as tinygrad reads them: negative dims count from the end.
#include "core/base/error.h"

namespace tr {

// dim as an index into ndim + extra dims (extra: the dims an op adds, as stack and unsqueeze do).
inline int resolve_dim(int dim, int ndim, int extra = 0) {
  const int n = ndim + extra;
  // a 0-dim tensor has no dimension to name: its callers that accept one (squeeze, flatten) handle it first
  if (dim < -n || dim >= n) fail("index", "dimension {} is out of range for a tensor of {} dims", dim, ndim);
  return dim < 0 ? dim + n : dim;
}

}  // namespace tr
