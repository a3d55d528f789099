#include "devices/shared_object.h"

#include <dlfcn.h>
#include <elf.h>

#include <atomic>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <thread>

#include "core/base/error.h"
#include "core/base/interrupt.h"
#include "devices/abortable.h"
#include "devices/host_memory.h"

namespace tr {
namespace {

// The barrier of the cores of one launch: each calls core_sync at the same points of the kernel, and
// the last to arrive lets the others go. Waiting cores spin, yielding: a wait lasts at most the slowest
// core's share of one walk, and a sleeping wait would cost a system call per core. Atomics only, so that
// an interrupt may jump out of a wait.
struct CoreBarrier {
  explicit CoreBarrier(int n) : cores(n) {}
  const int cores;
  std::atomic<int> arrived{0};
  std::atomic<uint32_t> passed{0};
};

void core_sync(void* ctx) {
  CoreBarrier& b = *static_cast<CoreBarrier*>(ctx);
  const uint32_t pass = b.passed.load(std::memory_order_acquire);
  if (b.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == b.cores) {
    b.arrived.store(0, std::memory_order_relaxed);
    b.passed.fetch_add(1, std::memory_order_release);
    return;
  }
  while (b.passed.load(std::memory_order_acquire) == pass) std::this_thread::yield();
}

class SharedObjectProgram : public Program {
 public:
  SharedObjectProgram(void* lib, KernelEntry entry, ThreadPool& pool, std::vector<int64_t> shared_bytes)
      : lib_(lib), entry_(entry), pool_(pool), shared_bytes_(std::move(shared_bytes)) {}
  ~SharedObjectProgram() override { ::dlclose(lib_); }
  SharedObjectProgram(const SharedObjectProgram&) = delete;
  SharedObjectProgram& operator=(const SharedObjectProgram&) = delete;

  double run(const std::vector<const Buffer*>& bufs, const LaunchDims& dims, const std::vector<int32_t>& vars) override {
    return *run_within(bufs, dims, vars, std::numeric_limits<double>::infinity());
  }

  std::optional<double> run_within(const std::vector<const Buffer*>& bufs, const LaunchDims& dims,
                                   const std::vector<int32_t>& vars, double limit) override {
    HostArgs args(bufs, vars);
    const int cores = static_cast<int>(dims.global[0]);
    CoreBarrier barrier(cores);
    std::vector<std::unique_ptr<std::byte[]>> shared;
    for (const int64_t bytes : shared_bytes_) {
      shared.push_back(std::make_unique<std::byte[]>(static_cast<size_t>(bytes)));
      args.pointers.push_back(shared.back().get());
    }
    if (!shared.empty()) args.pointers.insert(args.pointers.end(), {reinterpret_cast<void*>(&core_sync), &barrier});
    std::atomic<bool> stopped{false}, over_limit{false};
    const StopAfter limited(over_limit, limit);
    const auto t0 = std::chrono::steady_clock::now();
    pool_.run(cores, [&](int core) {
      if (!run_abortable(entry_, args.pointers.data(), core, over_limit)) stopped = true;
    }, !shared.empty());
    if (stopped && (interrupted() || !over_limit)) throw_interrupt();
    if (stopped) return std::nullopt;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

 private:
  void* lib_;
  KernelEntry entry_;
  ThreadPool& pool_;
  std::vector<int64_t> shared_bytes_;  // per memory the cores share, its size
};

// dlopen maps a truncated object as if it were whole, and the first touch of a page past its end is a
// SIGBUS: every segment and the section table must lie inside the file.
void check_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  Elf64_Ehdr eh{};
  if (!in.read(reinterpret_cast<char*>(&eh), sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64)
    fail("compile", "{} is not a 64-bit ELF object", path);
  uint64_t end = eh.e_shoff + uint64_t{eh.e_shnum} * eh.e_shentsize;
  for (int i = 0; i < eh.e_phnum; i++) {
    Elf64_Phdr ph{};
    in.seekg(static_cast<std::streamoff>(eh.e_phoff + uint64_t(i) * eh.e_phentsize));
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) fail("compile", "{} is cut short", path);
    end = std::max<uint64_t>(end, ph.p_offset + ph.p_filesz);
  }
  if (std::filesystem::file_size(path) < end) fail("compile", "{} is cut short", path);
}

}  // namespace

LoadedEntry load_entry(const std::string& path) {
  void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) fail("compile", "cannot load {}: {}", path, ::dlerror());
  void* entry = ::dlsym(lib, "tinyrepl_entry");
  if (!entry) {
    ::dlclose(lib);
    fail("compile", "{} has no entry point", path);
  }
  return {lib, entry};
}

std::unique_ptr<Program> load_shared_object(const std::string& path, ThreadPool& pool, const UOpProgram& program) {
  check_whole(path);
  const LoadedEntry loaded = load_entry(path);
  std::vector<int64_t> shared_bytes;
  for (const UOp& u : core_locals(program)) shared_bytes.push_back(u.size * itemsize(u.dtype));
  return std::make_unique<SharedObjectProgram>(loaded.lib, reinterpret_cast<KernelEntry>(loaded.entry), pool,
                                               std::move(shared_bytes));
}

}  // namespace tr
