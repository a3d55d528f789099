#pragma once
// The correctness oracle: evaluates any lazy graph directly on the host, one primitive at a time,
// with no scheduling, no codegen and no device. Floats are computed in double and rounded to the
// node's dtype after each operation; integers wrap to their width.
#include "core/runtime/buffer.h"
#include "core/lazy/lazy.h"

namespace tr {

HostData reference_eval(const LazyRef& node);

}  // namespace tr
