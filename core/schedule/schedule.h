#pragma once
// The realize boundary: groups the lazy graph into kernels and copies, each with the reason it ends.
#include <memory>
#include <string>
#include <vector>

#include "core/kernel/ast.h"
#include "core/lazy/lazy.h"
#include "core/lazy/symbolic_shape.h"

namespace tr {

struct ScheduleItem {
  enum class Kind { Kernel, Copy } kind;
  AstRef ast;                        // Kernel: buffer idx 0 is outputs[0], then inputs in order
  std::vector<LazyRef> outputs;      // the base nodes this item realizes
  std::vector<LazyRef> inputs;       // Kernel: realized nodes it loads; Copy from a device: the source
  std::string reason;                // why this kernel (or copy) exists
  std::vector<uint64_t> fused;       // ids of the lazy nodes computed inside this kernel
  VarVals vars{};                    // Kernel: the value of each Variable its trackers hold
};

// The buffer that holds n's values once it has run: its own when realized, its target's for an assign
// (through a chain of assigns to one tensor); null for any other node not realized yet.
BufferRef buffer_of(const LazyNode& n);

// Items in execution order. Nodes already realized are loaded, never recomputed. A node with no
// elements gets no item (no kernel runs for it); it is still an input of the items that read it.
std::vector<ScheduleItem> create_schedule(const std::vector<LazyRef>& outs);

}  // namespace tr
