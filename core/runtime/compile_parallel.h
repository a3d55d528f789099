#pragma once
// Compiles the kernels of a schedule on every core at once. The compilers are processes of their own
// (cc, clang) or libraries that take calls from any thread (NVRTC with the context made current per
// call, OpenCL), so a schedule of many new kernels waits for the slowest compile, not for their sum.
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/device.h"
#include "core/base/progress.h"

namespace tr {

struct CompileJob {
  Device* device = nullptr;
  const UOpProgram* program = nullptr;
  const std::string* source = nullptr;
  std::shared_ptr<Program> result{};  // filled in
  bool cached = false;                // it came from the on-disk cache
  std::exception_ptr failure{};       // filled in when the compile failed
};

// Runs every job, one thread per core, each failure kept in its job. Reports `phase` progress as they
// finish, each under its program's name, or under `what` where it is given.
void compile_each(std::vector<CompileJob>& jobs, Phase phase = Phase::Compile, const std::string& what = {});

// compile_each, then throws the first failure in the jobs' order.
void compile_parallel(std::vector<CompileJob>& jobs);

}  // namespace tr
