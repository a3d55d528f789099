#include "devices/shims/gpu_shim.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/render/render.h"
#include "devices/disk_cache.h"
#include "devices/host_cpu.h"
#include "devices/host_memory.h"
#include "devices/shims/fibers.h"
#include "devices/shared_object.h"

namespace tr {
namespace {

// entry(buffers, threadgroup id, thread id in it, thread id in the grid, threadgroup size, the
// barrier's wait function and its argument)
using Entry = void (*)(void**, const unsigned*, const unsigned*, const unsigned*, const unsigned*, void (*)(void*), void*);

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("device", "the shim header {} is missing", path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The entry every shim's program exports (Entry's parameters), around the call that `body` makes.
std::string entry_function(const std::string& body) {
  return fmt::format(
      "\nextern \"C\" void tinyrepl_entry(void** b, const unsigned* group, const unsigned* thread, const unsigned* grid,\n"
      "                               const unsigned* size, void (*wait)(void*), void* context) {{\n{}}}\n",
      body);
}

// The parameter list of the kernel whose signature starts with `head` ("kernel void E_4(").
std::string kernel_params(const std::string& source, const std::string& head, const std::string& language) {
  const size_t open = source.find(head);
  const size_t close = open == std::string::npos ? open : source.find(") {", open);
  if (close == std::string::npos) fail("compile", "the {} source has no kernel `{}`", language, head);
  return source.substr(open + head.size(), close - open - head.size());
}

// Metal: the kernel is called with each parameter bound by its attribute, as Metal binds them.
std::string metal_entry(const std::string& source, const std::string& name) {
  const std::string params = kernel_params(source, "kernel void " + name + "(", "Metal");
  static const std::regex attr(R"(\[\[(\w+)(?:\((\d+)\))?\]\])");
  std::vector<std::string> args;
  for (auto it = std::sregex_iterator(params.begin(), params.end(), attr); it != std::sregex_iterator(); ++it) {
    const std::string a = (*it)[1];
    if (a == "buffer") args.push_back(fmt::format("metal::shim::buffer{{b[{}]}}", (*it)[2].str()));
    else if (a == "threadgroup_position_in_grid") args.push_back("metal::shim::id(group)");
    else if (a == "thread_position_in_threadgroup") args.push_back("metal::shim::id(thread)");
    else if (a == "thread_position_in_grid") args.push_back("metal::shim::id(grid)");
    else if (a == "threads_per_threadgroup") args.push_back("metal::shim::id(size)");
    else fail("compile", "the Metal shim cannot bind [[{}]]", a);
  }
  return entry_function(fmt::format("  metal::shim::barrier_wait = wait;\n  metal::shim::barrier_context = context;\n"
                                     "  metal::shim::thread_index = thread[0] + size[0] * (thread[1] + size[1] * thread[2]);\n"
                                     "  {}({});\n",
                                     name, fmt::join(args, ", ")));
}

// HIP: the launch ids are set for the thread, and the kernel is called with its parameters in order
// (the buffers, then the Variables' values).
std::string hip_entry(const std::string& source, const std::string& name) {
  const std::string params = kernel_params(source, "__global__ void " + name + "(", "HIP");
  const size_t n = params.empty() ? 0 : static_cast<size_t>(std::count(params.begin(), params.end(), ',')) + 1;
  std::vector<std::string> args;
  for (size_t i = 0; i < n; i++) args.push_back(fmt::format("tinyrepl_hip::arg{{b[{}]}}", i));
  return entry_function(fmt::format(
      "  (void)grid;\n"
      "  tinyrepl_hip::group_id = {{group[0], group[1], group[2]}};\n"
      "  tinyrepl_hip::thread_id = {{thread[0], thread[1], thread[2]}};\n"
      "  tinyrepl_hip::group_size = {{size[0], size[1], size[2]}};\n"
      "  tinyrepl_hip::barrier_wait = wait;\n  tinyrepl_hip::barrier_context = context;\n  {}({});\n",
      name, fmt::join(args, ", ")));
}

// What a shim needs of its language.
struct ShimLanguage {
  const char* device;                // its name: METALSHIM
  std::string backend;               // the renderer whose source it runs
  std::string name;                  // in errors: "Metal"
  std::string include_dir;           // where the source's #include finds the header
  std::vector<std::string> headers;  // what a compiled program depends on, under include_dir
  Target target;
  std::string (*entry)(const std::string& source, const std::string& name);
};

class ShimProgram : public Program {
 public:
  ShimProgram(void* lib, Entry entry, bool local_ids, bool barriers)
      : lib_(lib), entry_(entry), local_ids_(local_ids), barriers_(barriers) {}
  ~ShimProgram() override { ::dlclose(lib_); }
  ShimProgram(const ShimProgram&) = delete;
  ShimProgram& operator=(const ShimProgram&) = delete;

  double run(const std::vector<const Buffer*>& bufs, const LaunchDims& dims, const std::vector<int32_t>& vars) override {
    HostArgs args(bufs, vars);
    const LaunchDims launch = launch_for(dims, vars);
    // without local ids every threadgroup is one thread, and the grid position is the group's
    const std::array<int64_t, 3> size = local_ids_ ? launch.local : std::array<int64_t, 3>{1, 1, 1};
    const unsigned sz[3] = {static_cast<unsigned>(size[0]), static_cast<unsigned>(size[1]), static_cast<unsigned>(size[2])};
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::array<unsigned, 3>> groups;
    for (int64_t gz = 0; gz < launch.global[2]; gz++)
      for (int64_t gy = 0; gy < launch.global[1]; gy++)
        for (int64_t gx = 0; gx < launch.global[0]; gx++)
          groups.push_back({static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz)});
    run_groups(args.pointers.data(), groups, sz);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

 private:
  void* lib_;
  Entry entry_;
  bool local_ids_, barriers_;

  // One threadgroup at a time (its `threadgroup` memory is static in the kernel). With barriers, its
  // threads are fibers (devices/shims/fibers.h) that switch at the kernel's barriers, their stacks made
  // once per launch.
  void run_groups(void** bufs, const std::vector<std::array<unsigned, 3>>& groups, const unsigned* sz) {
    std::vector<std::array<unsigned, 3>> ids;
    for (unsigned z = 0; z < sz[2]; z++)
      for (unsigned y = 0; y < sz[1]; y++)
        for (unsigned x = 0; x < sz[0]; x++) ids.push_back({x, y, z});
    auto call = [&](const std::array<unsigned, 3>& g, const std::array<unsigned, 3>& t, void (*wait)(void*), void* context) {
      const unsigned grid[3] = {g[0] * sz[0] + t[0], g[1] * sz[1] + t[1], g[2] * sz[2] + t[2]};
      entry_(bufs, g.data(), t.data(), grid, sz, wait, context);
    };
    if (!barriers_) {
      for (const auto& g : groups)
        for (const auto& t : ids) call(g, t, nullptr, nullptr);
      return;
    }
    FiberGroup fibers(ids.size());
    for (const auto& g : groups) fibers.run([&](size_t i) { call(g, ids[i], &FiberGroup::barrier, &fibers); });
  }
};

class ShimDevice : public HostMemoryDevice {
 public:
  ShimDevice(ShimLanguage lang, int index)
      : HostMemoryDevice(device_name({lang.device, index}), lang.backend), lang_(std::move(lang)) {
    const char* cxx = std::getenv("CXX");
    compiler_ = cxx && *cxx ? cxx : "c++";
    std::string version;
    if (run_command(compiler_ + " --version", version) != 0)
      fail("device", "the {} shim needs a C++ compiler, and `{}` does not run: {}", lang_.name, compiler_, version);
    version_ = version.substr(0, version.find('\n'));
    for (const std::string& h : lang_.headers) headers_ += read_file(lang_.include_dir + "/" + h);
  }

  Target target() const override { return lang_.target; }

  std::unique_ptr<Program> compile(const UOpProgram& program, const std::string& source, bool& cached) override {
    const std::string full = source + lang_.entry(source, program.name);
    const std::string flags = fmt::format("-std=c++20 -O1 {} -fPIC -shared -Wno-attributes", isa_compiler_flags(host_cpu_target().isa));
    const std::string so = cached_file(version_ + flags + headers_ + full, ".so", [&](const std::string& dir) {
      std::ofstream(dir + "/kernel.cpp") << full;
      std::string log;
      const std::string cmd = fmt::format("{} {} -I{} -o {}/kernel.so {}/kernel.cpp", compiler_, flags, lang_.include_dir, dir, dir);
      if (run_command(cmd, log, dir) != 0) fail("compile", "the {} shim's {} failed:\n{}\nsource:\n{}", lang_.name, compiler_, log, full);
      return dir + "/kernel.so";
    }, cached);
    const LoadedEntry loaded = load_entry(so);
    // a matrix unit's step is a collective of the SIMD group, which the shim's meets at barriers
    const bool barriers = std::any_of(program.uops.begin(), program.uops.end(),
                                      [](const UOp& u) { return u.kind == UOpKind::Barrier || u.kind == UOpKind::Wmma; });
    return std::make_unique<ShimProgram>(loaded.lib, reinterpret_cast<Entry>(loaded.entry), has_local_ids(program.uops), barriers);
  }

 private:
  ShimLanguage lang_;
  std::string headers_, compiler_, version_;
};

}  // namespace

// the limits of an Apple GPU: 32 KiB of threadgroup memory, SIMD groups of 32, simdgroup_matrix
std::unique_ptr<Device> open_metal_shim(int index) {
  return std::make_unique<ShimDevice>(
      ShimLanguage{kMetalShim, "metal", "Metal", TINYREPL_SHIM_DIR "/metal", {"metal_stdlib", "../half.h"},
                   Target{.gpu = true, .local_memory = 32 << 10, .cores = 1, .max_local = 256, .warp_size = 32,
                          .matrix_units = metal_matrix_units()},
                   metal_entry},
      index);
}

// the limits of an AMD GPU: 64 KiB of LDS, wavefronts of 64; CUDA's vector types move 4 lanes whole
std::unique_ptr<Device> open_hip_shim(int index) {
  return std::make_unique<ShimDevice>(
      ShimLanguage{kHipShim, "hip", "HIP", TINYREPL_SHIM_DIR "/hip", {"hip/hip_runtime.h", "../half.h"},
                   Target{.gpu = true, .local_memory = 64 << 10, .cores = 1, .max_local = 256, .vector_width = 4, .warp_size = 64},
                   hip_entry},
      index);
}

}  // namespace tr
