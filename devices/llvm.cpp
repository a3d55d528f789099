// LLVM: the LLVM IR renderer's text compiled by clang (-x ir) into a shared object on the CPU and
// run like the CPU device: an entry that takes the buffer array and a core id, over a thread pool.
// clang before 15 compiles the same IR spelled with typed pointers.
#include <algorithm>
#include <cstdlib>
#include <regex>

#include <fmt/format.h>

#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/render/llvm.h"
#include "devices/disk_cache.h"
#include "devices/host_cpu.h"
#include "devices/host_memory.h"
#include "devices/object_compiler.h"
#include "devices/shared_object.h"
#include "devices/thread_pool.h"

namespace tr {
namespace {

// Loads each buffer pointer from the array and calls the kernel with them and the core id.
std::string entry_wrapper(const UOpProgram& p, bool typed) {
  std::string body, args;
  const std::string bytes = typed ? "i8*" : "ptr", array = typed ? "i8**" : "ptr";
  const auto type = [&](const std::string& pointee) { return typed ? pointee + "*" : std::string("ptr"); };
  // Element i of the array as a pointer to `pointee` (with typed pointers, through a bitcast): its register.
  const auto pointer = [&](size_t i, const std::string& pointee) {
    body += fmt::format("  %p{0} = getelementptr {1}, {2} %b, i64 {0}\n  %b{0} = load {1}, {2} %p{0}\n", i, bytes, array);
    if (!typed || pointee == "i8") return fmt::format("%b{}", i);
    body += fmt::format("  %c{0} = bitcast i8* %b{0} to {1}*\n", i, pointee);
    return fmt::format("%c{}", i);
  };
  for (size_t i = 0; i < p.globals.size(); i++) {
    const std::string t = llvm_memory_type(p.globals[i]);
    args += fmt::format("{} {}, ", type(t), pointer(i, t));
  }
  // the Variables' values follow the buffers in the array, each through a pointer to its i32
  for (size_t v = 0, i = p.globals.size(); v < p.vars.size(); v++, i++) {
    const std::string at = pointer(i, "i32");
    body += fmt::format("  %v{0} = load i32, {1} {2}\n", i, type("i32"), at);
    args += fmt::format("i32 %v{}, ", i);
  }
  // then the memory the cores share, their barrier and its state (core_locals in core/ir/uops.h)
  std::string after;
  const std::vector<UOp> shared = core_locals(p);
  size_t i = p.globals.size() + p.vars.size();
  for (const UOp& u : shared) {
    const std::string t = llvm_memory_type(u.dtype);
    after += fmt::format(", {} {}", type(t), pointer(i++, t));
  }
  if (!shared.empty()) {
    const std::string sync = "void (" + type("i8") + ")";
    after += fmt::format(", {} {}", type(sync), pointer(i++, sync));
    after += fmt::format(", {} {}", type("i8"), pointer(i++, "i8"));
  }
  return fmt::format("define void @tinyrepl_entry({} %b, i32 %core_id) {{\n{}  call void @{}({}i32 %core_id{})\n  ret void\n}}\n",
                     array, body, p.name, args, after);
}

}  // namespace

LlvmCompiler llvm_compiler() {
  const char* cc = std::getenv("TINYREPL_CLANG");
  const std::string clang = cc && *cc ? cc : "clang";
  const std::string version = compiler_version(clang, "LLVM IR is compiled by clang");
  std::smatch m;
  const int major = std::regex_search(version, m, std::regex(R"(version (\d+))")) ? std::stoi(m[1]) : 0;
  // compiler-rt's builtins hold the half conversions (__gnu_h2f_ieee) that clang calls without F16C
  const std::string flags = fmt::format("-x ir -O2 {} -fPIC -shared --rtlib=compiler-rt -Wno-override-module",
                                        isa_compiler_flags(host_cpu_target().isa));
  // clang before 15 gets the IR spelled with typed pointers (see core/render/llvm.h)
  return {.cc = {.program = clang, .version = version, .flags = flags, .file = "kernel.ll", .libs = "-lm"},
          .typed_pointers = major > 0 && major < 15};
}

std::string llvm_object_text(const LlvmCompiler& c, const UOpProgram& program, const std::string& source) {
  return (c.typed_pointers ? render_llvm_typed_pointers(program) : source) + "\n" + entry_wrapper(program, c.typed_pointers);
}

namespace {

class LlvmDevice : public HostMemoryDevice {
 public:
  explicit LlvmDevice(int index)
      : HostMemoryDevice(device_name({"LLVM", index}), "llvm"), target_(host_cpu_target()), pool_(host_cores() - 1), clang_(llvm_compiler()) {
    // the LLVM renderer's vectors are of up to 4 lanes, whatever the registers hold
    target_.vector_width = std::min(target_.vector_width, 4);
  }

  Target target() const override { return target_; }

  std::unique_ptr<Program> compile(const UOpProgram& program, const std::string& source, bool& cached) override {
    for (const UOp& u : program.uops)
      if (u.kind == UOpKind::Special && u.launch != LaunchKind::Core)
        fail("compile", "the LLVM device runs CPU kernels; {} has the GPU launch id {}", program.name, uop_name(u));
    const std::string text = llvm_object_text(clang_, program, source);
    return load_cached(clang_.cc.key(text), ".so", [&](const std::string& dir) { return clang_.cc.build(dir, text); }, cached,
                       [&](const std::string& so) { return load_shared_object(so, pool_, program); });
  }

 private:
  Target target_;
  ThreadPool pool_;
  LlvmCompiler clang_;
};

}  // namespace

std::unique_ptr<Device> open_llvm(int index) { return std::make_unique<LlvmDevice>(index); }

}  // namespace tr
