#pragma once
// The per-kernel text views that :ast, :uops, :src, :opt and :step share: a title line, and the
// source for the backends the session asks for.
#include <string>
#include <vector>

#include "core/realize.h"

namespace tr::repl {

// "kernel 2 r_4_4 on CPU (opts: UPCAST(0, 4))"
std::string kernel_title(int k, const KernelRecord& r);
// The opts applied and the dims they left, each with its role: what :opt's AXIS counts.
std::string dims_text(const KernelRecord& r);
// The backends whose source is shown: the :render list, else the device's own.
std::vector<std::string> shown_backends(const KernelRecord& r);
// "// opencl\n<source>" for each backend.
std::string sources_text(const KernelRecord& r, const std::vector<std::string>& backends);
// "tm 5.62us  0.00 GFLOPS  0.01 GB/s"
std::string timing_text(const KernelRecord& r);

}  // namespace tr::repl
