#pragma once
// Running the lowering passes one at a time (core/codegen/lowering.h) on a kernel built by hand, and
// counting what a graph holds, for the tests of each pass.
#include <gtest/gtest.h>

#include <functional>

#include "core/codegen/lowering.h"
#include "tests/kernel_testing.h"

namespace tr::testing {

// The nodes of g reachable from its sink that `pred` holds for.
inline int count_nodes(const UGraph& g, const std::function<bool(const UOp&)>& pred) {
  int n = 0;
  for (const int i : toposort(g)) n += pred(g[i]);
  return n;
}
inline int count_kind(const UGraph& g, UOpKind kind) {
  return count_nodes(g, [&](const UOp& u) { return u.kind == kind; });
}

// A GPU with workgroups, local memory and 4-wide vectors, and a CPU without vector instructions.
inline const Target kPassGpu{.gpu = true, .local_memory = 48 << 10, .cores = 1, .max_local = 256, .vector_width = 4, .warp_size = 32};
inline const Target kScalarCpu = cpu_target(Isa::None, 1, {});

}  // namespace tr::testing
