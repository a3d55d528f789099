#pragma once
// The machine this process runs on, as the CPU and LLVM devices describe it to the engine.
#include "core/ir/target.h"

namespace tr {

int host_cores();
// The host's instruction set (cpuid on x86, NEON on aarch64), cores and data caches. TINYREPL_ISA
// (none, sse, avx2, avx512, neon) replaces the instruction set, to see the opts another CPU gets;
// throws tr::Error("device") when it names none of them.
Target host_cpu_target();

}  // namespace tr
