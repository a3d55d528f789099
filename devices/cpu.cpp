// CPU: C source compiled by the system compiler into a shared object, loaded with dlopen, and run
// over a thread pool, one call per value of the kernel's THREAD dim (devices/shared_object).
#include <cstdlib>

#include <fmt/format.h>

#include "core/runtime/device.h"
#include "core/base/error.h"
#include "devices/disk_cache.h"
#include "devices/host_cpu.h"
#include "devices/host_memory.h"
#include "devices/object_compiler.h"
#include "devices/shared_object.h"
#include "devices/thread_pool.h"

namespace tr {

ObjectCompiler c_compiler() {
  const char* cc = std::getenv("CC");
  const std::string program = cc && *cc ? cc : "cc";
  // -ffp-contract=off: each + and * rounds on its own, as in the reference evaluator and tinygrad. A
  // fused multiply-add made std([1, 2, 3]) 0.99999994, and one expression fused into two kernels could
  // round two ways: a max's gradient compares a value with its copy in the max's kernel and lost the
  // elements whose copies differed (a conv's output, max-pooled).
  const std::string flags = fmt::format("-O2 {} -fPIC -shared -fwrapv -fno-math-errno -fexcess-precision=standard -ffp-contract=off",
                                        isa_compiler_flags(host_cpu_target().isa));
  // libmvec: glibc's vector math functions, which the C renderer's vector exp2, log2 and sin call
  return {.program = program, .version = compiler_version(program, "the CPU device compiles C with it"), .flags = flags,
          .file = "kernel.c", .libs = "-lm -lmvec"};
}

std::string c_object_text(const UOpProgram& program, const std::string& source) {
  // A fixed entry point takes the buffers as an array, so every kernel loads the same way.
  std::string args;
  for (size_t i = 0; i < program.globals.size(); i++) args += fmt::format("b[{}], ", i);
  // the Variables' values follow the buffers in the array, each through a pointer to its int
  for (size_t i = 0; i < program.vars.size(); i++) args += fmt::format("*(const int*)b[{}], ", program.globals.size() + i);
  // then the memory the cores share, their barrier and its state (core_locals in core/ir/uops.h)
  const size_t shared = core_locals(program).size(), first = program.globals.size() + program.vars.size();
  std::string after;
  for (size_t i = 0; i < shared; i++) after += fmt::format(", b[{}]", first + i);
  if (shared) after += fmt::format(", (void (*)(void*))b[{}], b[{}]", first + shared, first + shared + 1);
  return fmt::format("{}\nvoid tinyrepl_entry(void** b, int core_id) {{ {}({}core_id{}); }}\n", source, program.name, args, after);
}

namespace {

class CpuDevice : public HostMemoryDevice {
 public:
  explicit CpuDevice(int index)
      : HostMemoryDevice(device_name({"CPU", index}), "c"), target_(host_cpu_target()), pool_(host_cores() - 1), cc_(c_compiler()) {}

  Target target() const override { return target_; }

  std::unique_ptr<Program> compile(const UOpProgram& program, const std::string& source, bool& cached) override {
    const std::string text = c_object_text(program, source);
    return load_cached(cc_.key(text), ".so", [&](const std::string& dir) { return cc_.build(dir, text); }, cached,
                       [&](const std::string& so) { return load_shared_object(so, pool_, program); });
  }

 private:
  Target target_;
  ThreadPool pool_;
  ObjectCompiler cc_;
};

}  // namespace

std::unique_ptr<Device> open_cpu(int index) { return std::make_unique<CpuDevice>(index); }

}  // namespace tr
