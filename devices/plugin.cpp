// A plug-in device seen through the Device interface: each call goes to the library's C function,
// and a failure's message becomes a tr::Error. The library stays open while any device, buffer or
// program of it is alive.
#include "devices/plugin.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "core/runtime/device.h"
#include "core/base/error.h"
#include "core/render/render.h"
#include "devices/tinyrepl_device.h"

namespace tr {
namespace {

struct Library {
  std::shared_ptr<void> handle;
  const tinyrepl_device* d = nullptr;
};

// Calls f(err, size) and throws the message it wrote when it returns nonzero.
template <typename F>
void call(const char* kind, const std::string& what, F f) {
  char err[1024] = {};
  if (f(err, sizeof err) != 0) fail(kind, "{}: {}", what, err[0] ? err : "the plug-in gave no reason");
}

class PluginProgram : public Program {
 public:
  PluginProgram(Library lib, void* program, int nbuffers) : lib_(std::move(lib)), program_(program), nbuffers_(nbuffers) {}
  ~PluginProgram() override { lib_.d->release(lib_.d->state, program_); }
  PluginProgram(const PluginProgram&) = delete;
  PluginProgram& operator=(const PluginProgram&) = delete;

  double run(const std::vector<const Buffer*>& bufs, const LaunchDims& dims, const std::vector<int32_t>& vars) override {
    // the plug-in interface passes buffers only
    if (!vars.empty()) fail("device", "{} cannot run a kernel over a symbolic size (a Variable argument)", lib_.d->name);
    if (static_cast<int>(bufs.size()) != nbuffers_) fail("device", "the kernel takes {} buffers, not {}", nbuffers_, bufs.size());
    std::vector<void*> mem;
    for (const Buffer* b : bufs) mem.push_back(b->mem.get());
    double seconds = 0;
    call("device", fmt::format("{} could not run the kernel", lib_.d->name), [&](char* e, size_t n) {
      return lib_.d->run(lib_.d->state, program_, mem.data(), nbuffers_, dims.global.data(), dims.local.data(), &seconds, e, n);
    });
    return seconds;
  }

 private:
  Library lib_;
  void* program_;
  int nbuffers_;
};

class PluginDevice : public Device {
 public:
  explicit PluginDevice(Library lib) : lib_(std::move(lib)), name_(lib_.d->name), backend_(lib_.d->backend) {
    const int cores = std::max(lib_.d->cores, 1);
    target_ = lib_.d->gpu ? Target{.gpu = true, .local_memory = 0, .cores = cores, .max_local = 256, .warp_size = 32}
                          : cpu_target(Isa::None, cores, {});
    target_.cores_combine = false;  // run() calls the core ids of a launch one after another
  }

  const std::string& name() const override { return name_; }
  const std::string& backend() const override { return backend_; }
  Target target() const override { return target_; }

  BufferRef alloc(DType dtype, int64_t size) override {
    check_alloc(size, dtype);
    const size_t bytes = std::max<size_t>(static_cast<size_t>(size) * itemsize(dtype), 1);
    void* mem = nullptr;
    call("memory", fmt::format("{} cannot allocate {} bytes", name_, bytes),
         [&](char* e, size_t n) { return lib_.d->alloc(lib_.d->state, bytes, &mem, e, n); });
    const Library lib = lib_;
    return std::make_shared<Buffer>(Buffer{name_, dtype, size, std::shared_ptr<void>(mem, [lib](void* p) { lib.d->free(lib.d->state, p); })});
  }

  void copyin(const Buffer& dst, const void* src) override {
    if (dst.nbytes() == 0) return;
    call("device", fmt::format("copying into {}", name_), [&](char* e, size_t n) {
      return lib_.d->copyin(lib_.d->state, dst.mem.get(), src, static_cast<size_t>(dst.nbytes()), e, n);
    });
  }

  void copyout(void* dst, const Buffer& src) override {
    if (src.nbytes() == 0) return;
    call("device", fmt::format("copying out of {}", name_), [&](char* e, size_t n) {
      return lib_.d->copyout(lib_.d->state, dst, src.mem.get(), static_cast<size_t>(src.nbytes()), e, n);
    });
  }

  std::unique_ptr<Program> compile(const UOpProgram& program, const std::string& source, bool& cached) override {
    cached = false;
    const int nbuffers = static_cast<int>(program.globals.size());
    void* handle = nullptr;
    call("compile", fmt::format("{} could not compile {}", name_, program.name), [&](char* e, size_t n) {
      return lib_.d->compile(lib_.d->state, program.name.c_str(), source.c_str(), nbuffers, &handle, e, n);
    });
    return std::make_unique<PluginProgram>(lib_, handle, nbuffers);
  }

 private:
  Library lib_;
  std::string name_, backend_;
  Target target_;
};

}  // namespace

std::string load_device_plugin(const std::string& path) {
  void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) fail("device", "cannot load the device plug-in {}: {}", path, ::dlerror());
  Library lib{std::shared_ptr<void>(h, [](void* p) { ::dlclose(p); }), nullptr};
  using Open = const tinyrepl_device* (*)(char*, size_t);
  const auto open = reinterpret_cast<Open>(::dlsym(h, "tinyrepl_device_open"));
  if (!open) fail("device", "{} is not a device plug-in: it has no tinyrepl_device_open", path);
  char err[1024] = {};
  lib.d = open(err, sizeof err);
  if (!lib.d) fail("device", "the device plug-in {} did not open: {}", path, err[0] ? err : "it gave no reason");
  if (lib.d->abi != TINYREPL_DEVICE_ABI)
    fail("device", "{} was built for version {} of the device interface; this tinyrepl has version {}", path, lib.d->abi, TINYREPL_DEVICE_ABI);
  const tinyrepl_device& d = *lib.d;
  if (!d.name || !*d.name || !d.backend || !d.alloc || !d.free || !d.copyin || !d.copyout || !d.compile || !d.release || !d.run)
    fail("device", "the device plug-in {} leaves its name, backend or a function unset", path);
  if (!has_backend(d.backend)) fail("device", "the device plug-in {} asks for the unknown backend '{}' (backends: {})", path, d.backend, fmt::join(backends(), ", "));
  const std::string name = d.name;
  const auto& known = registered_devices();
  if (std::any_of(known.begin(), known.end(), [&](const DeviceEntry& e) { return e.name == name; }))
    fail("device", "a device named {} exists already", name);
  // the C interface holds one state per library: one device
  register_device({name, [lib, name](int index) -> std::unique_ptr<Device> {
                     if (index > 0) fail("device", "there is no {}: a plug-in device has one instance", device_name({name, index}));
                     return std::make_unique<PluginDevice>(lib);
                   }});
  return name;
}

}  // namespace tr
