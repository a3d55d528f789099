// LLVM: the LLVM IR renderer's text compiled by clang (-x ir) into a shared object on the CPU and
// run like the CPU device: an entry that takes the buffer array and a core id, over a thread pool.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <thread>

#include <fmt/format.h>

#include "core/device.h"
#include "core/error.h"
#include "devices/disk_cache.h"
#include "devices/host_memory.h"
#include "devices/shared_object.h"
#include "devices/thread_pool.h"

namespace tr {
namespace {

int cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// Loads each buffer pointer from the array and calls the kernel with them and the core id.
std::string entry_wrapper(const UOpProgram& p) {
  std::string body, args;
  for (size_t i = 0; i < p.globals.size(); i++) {
    body += fmt::format("  %p{0} = getelementptr ptr, ptr %b, i64 {0}\n  %b{0} = load ptr, ptr %p{0}\n", i);
    args += fmt::format("ptr %b{}, ", i);
  }
  return fmt::format("define void @tinyrepl_entry(ptr %b, i32 %core_id) {{\n{}  call void @{}({}i32 %core_id)\n  ret void\n}}\n",
                     body, p.name, args);
}

class LlvmDevice : public HostMemoryDevice {
 public:
  LlvmDevice() : HostMemoryDevice("LLVM", "llvm"), pool_(cores() - 1) {
    const char* cc = std::getenv("TINYREPL_CLANG");
    clang_ = cc && *cc ? cc : "clang";
    std::string version;
    if (run_command(clang_ + " --version", version) != 0)
      fail("device", "LLVM IR is compiled by clang, and `{}` does not run: {}", clang_, version);
    version_ = version.substr(0, version.find('\n'));
    std::smatch m;
    const int major = std::regex_search(version_, m, std::regex(R"(version (\d+))")) ? std::stoi(m[1]) : 0;
    // the renderer writes opaque pointers (`ptr`), which clang before 15 reads only when asked
    flags_ = "-x ir -O2 -march=native -fPIC -shared -Wno-override-module";
    if (major > 0 && major < 15) flags_ += " -mllvm -opaque-pointers";
  }

  Target target() const override { return Target{.gpu = false, .local_memory = false, .cores = cores()}; }

  std::unique_ptr<Program> compile(const UOpProgram& program, const std::string& source, bool& cached) override {
    for (const UOp& u : program.uops)
      if (u.kind == UOpKind::Special && u.name != "core_id")
        fail("compile", "the LLVM device runs CPU kernels; {} has the GPU launch id {}", program.name, u.name);
    const std::string full = source + "\n" + entry_wrapper(program);
    const std::string so = cached_file(version_ + flags_ + full, ".so", [&](const std::string& dir) {
      std::ofstream(dir + "/kernel.ll") << full;
      std::string log;
      const std::string cmd = fmt::format("{} {} -o {}/kernel.so {}/kernel.ll -lm", clang_, flags_, dir, dir);
      if (run_command(cmd, log) != 0) fail("compile", "{} failed:\n{}\nsource:\n{}", clang_, log, full);
      return dir + "/kernel.so";
    }, cached);
    return load_shared_object(so, pool_);
  }

 private:
  ThreadPool pool_;
  std::string clang_, version_, flags_;
};

}  // namespace

std::unique_ptr<Device> open_llvm() { return std::make_unique<LlvmDevice>(); }

}  // namespace tr
