#pragma once
// A kernel as another backend's device would run it. A kernel lowered for the CPU has loops and a
// core_id; its CUDA, OpenCL or Metal source shown from those UOps would be no GPU's program. So a
// backend whose device is of the other kind (a GPU language for a CPU kernel, C or LLVM IR for a GPU
// kernel) gets the kernel lowered again for that backend's device, with that device's default opts.
#include <string>
#include <string_view>

#include "core/realize/realize.h"
#include "core/render/source_lines.h"

namespace tr {

struct BackendLowering {
  UOpProgram program;
  RenderedSource source;  // rendered for the backend, with the UOps of program that each line spells
  std::string note;    // whose target and opts, when the kernel was lowered again; "" when it was not
};

BackendLowering lowering_for_backend(const KernelRecord& r, std::string_view backend);

}  // namespace tr
