#include "devices/shared_object.h"

#include <dlfcn.h>

#include <atomic>
#include <chrono>

#include "core/error.h"
#include "core/interrupt.h"
#include "devices/abortable.h"

namespace tr {
namespace {

class SharedObjectProgram : public Program {
 public:
  SharedObjectProgram(void* lib, KernelEntry entry, ThreadPool& pool) : lib_(lib), entry_(entry), pool_(pool) {}
  ~SharedObjectProgram() override { ::dlclose(lib_); }
  SharedObjectProgram(const SharedObjectProgram&) = delete;
  SharedObjectProgram& operator=(const SharedObjectProgram&) = delete;

  double run(const std::vector<const Buffer*>& bufs, const LaunchDims& dims) override {
    std::vector<void*> ptrs;
    for (const Buffer* b : bufs) ptrs.push_back(b->mem.get());
    const auto t0 = std::chrono::steady_clock::now();
    std::atomic<bool> stopped{false};
    pool_.run(static_cast<int>(dims.global[0]), [&](int core) {
      if (!run_abortable(entry_, ptrs.data(), core)) stopped = true;
    });
    if (stopped) throw_interrupt();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

 private:
  void* lib_;
  KernelEntry entry_;
  ThreadPool& pool_;
};

}  // namespace

std::unique_ptr<Program> load_shared_object(const std::string& path, ThreadPool& pool) {
  void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) fail("compile", "cannot load {}: {}", path, ::dlerror());
  auto entry = reinterpret_cast<KernelEntry>(::dlsym(lib, "tinyrepl_entry"));
  if (!entry) {
    ::dlclose(lib);
    fail("compile", "{} has no entry point", path);
  }
  return std::make_unique<SharedObjectProgram>(lib, entry, pool);
}

}  // namespace tr
