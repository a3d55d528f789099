#pragma once
// Compiles the kernels of a schedule on every core at once. The compilers are processes of their own
// (cc, clang) or libraries that take calls from any thread (NVRTC with the context made current per
// call, OpenCL), so a schedule of many new kernels waits for the slowest compile, not for their sum.
#include <memory>
#include <string>
#include <vector>

#include "core/device.h"

namespace tr {

struct CompileJob {
  Device* device = nullptr;
  const UOpProgram* program = nullptr;
  const std::string* source = nullptr;
  std::shared_ptr<Program> result{};  // filled in
  bool cached = false;                // it came from the on-disk cache
};

// Runs every job, one thread per core; when some fail, throws the first failure in the jobs' order
// once all have ended. Reports "compiling k/N" progress as they finish.
void compile_parallel(std::vector<CompileJob>& jobs);

}  // namespace tr
