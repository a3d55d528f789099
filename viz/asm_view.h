#pragma once
// A kernel's machine code for :asm and the Source pane's Asm tab: the instructions its backend's
// compiler made, each function's under its name, with the line of the backend's source that made them
// above each run of instructions, as far as the compiler's line table tells.
#include <string>
#include <string_view>

#include "core/realize/realize.h"

namespace tr {

// The backend of the device the kernel ran on: the code :asm K shows without a BACKEND.
std::string ran_backend(const KernelRecord& r);
// The machine code of kernel r for the backend, headed by what was disassembled and where its lines
// come from, or the reason there is none; ends with a newline.
std::string asm_text(const KernelRecord& r, std::string_view backend);

}  // namespace tr
