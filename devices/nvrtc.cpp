#include "devices/nvrtc.h"

#include <dlfcn.h>

#include <cstdlib>

#include <fmt/format.h>

#include "core/base/error.h"

namespace tr {

using nvrtcProgram = struct _nvrtcProgram*;

struct Nvrtc::Api {
  int (*create)(nvrtcProgram*, const char*, const char*, int, const char* const*, const char* const*) = nullptr;
  int (*compile)(nvrtcProgram, int, const char* const*) = nullptr;
  int (*log_size)(nvrtcProgram, size_t*) = nullptr;
  int (*log)(nvrtcProgram, char*) = nullptr;
  int (*ptx_size)(nvrtcProgram, size_t*) = nullptr;
  int (*ptx)(nvrtcProgram, char*) = nullptr;
  int (*cubin_size)(nvrtcProgram, size_t*) = nullptr;
  int (*cubin)(nvrtcProgram, char*) = nullptr;
  int (*destroy)(nvrtcProgram*) = nullptr;
  const char* (*error_string)(int) = nullptr;
  int (*version)(int*, int*) = nullptr;
  int (*num_archs)(int*) = nullptr;
  int (*archs)(int*) = nullptr;
  void* lib = nullptr;
};

namespace {

// NVRTC's soname carries the CUDA major version; toolkits keep it in lib64 (or lib).
std::vector<std::string> candidates() {
  std::vector<std::string> names{"libnvrtc.so"};
  for (const char* v : {"13", "12", "11.2"}) names.push_back(fmt::format("libnvrtc.so.{}", v));
  std::vector<std::string> dirs;
  for (const char* env : {"CUDA_PATH", "CUDA_HOME"})
    if (const char* d = std::getenv(env); d && *d) dirs.push_back(d);
  dirs.push_back("/usr/local/cuda");
  std::vector<std::string> out = names;
  for (const std::string& d : dirs)
    for (const char* sub : {"lib64", "lib"})
      for (const std::string& n : names) out.push_back(fmt::format("{}/{}/{}", d, sub, n));
  return out;
}

template <typename F>
void bind_symbol(void* lib, F& fn, const char* symbol) {
  fn = reinterpret_cast<F>(::dlsym(lib, symbol));
  if (!fn) fail("device", "libnvrtc has no {}: it is older than CUDA 11.2", symbol);
}

std::shared_ptr<const Nvrtc::Api> load() {
  void* lib = nullptr;
  for (const std::string& c : candidates())
    if ((lib = ::dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
  if (!lib)
    fail("device", "no NVRTC: libnvrtc.so is not on the library path, nor under $CUDA_PATH, $CUDA_HOME or /usr/local/cuda");
  auto api = std::make_shared<Nvrtc::Api>();
  api->lib = lib;  // kept for the life of the process, like the cached instance that holds it
  bind_symbol(lib, api->create, "nvrtcCreateProgram");
  bind_symbol(lib, api->compile, "nvrtcCompileProgram");
  bind_symbol(lib, api->log_size, "nvrtcGetProgramLogSize");
  bind_symbol(lib, api->log, "nvrtcGetProgramLog");
  bind_symbol(lib, api->ptx_size, "nvrtcGetPTXSize");
  bind_symbol(lib, api->ptx, "nvrtcGetPTX");
  bind_symbol(lib, api->cubin_size, "nvrtcGetCUBINSize");
  bind_symbol(lib, api->cubin, "nvrtcGetCUBIN");
  bind_symbol(lib, api->destroy, "nvrtcDestroyProgram");
  bind_symbol(lib, api->error_string, "nvrtcGetErrorString");
  bind_symbol(lib, api->version, "nvrtcVersion");
  bind_symbol(lib, api->num_archs, "nvrtcGetNumSupportedArchs");
  bind_symbol(lib, api->archs, "nvrtcGetSupportedArchs");
  return api;
}

}  // namespace

const Nvrtc& Nvrtc::get() {
  static const Nvrtc instance(load());
  return instance;
}

std::string Nvrtc::version() const {
  int major = 0, minor = 0;
  api_->version(&major, &minor);
  return fmt::format("{}.{}", major, minor);
}

std::vector<int> Nvrtc::supported_archs() const {
  int n = 0;
  api_->num_archs(&n);
  std::vector<int> archs(static_cast<size_t>(n));
  if (n > 0) api_->archs(archs.data());
  return archs;
}

std::string Nvrtc::compile(const std::string& source, const std::string& arch, const std::vector<std::string>& options) const {
  nvrtcProgram prog = nullptr;
  if (const int r = api_->create(&prog, source.c_str(), "kernel.cu", 0, nullptr, nullptr); r != 0)
    fail("compile", "nvrtcCreateProgram failed: {}", api_->error_string(r));
  const std::string arch_opt = "--gpu-architecture=" + arch;
  std::vector<const char*> opts{arch_opt.c_str()};
  for (const std::string& o : options) opts.push_back(o.c_str());
  const int status = api_->compile(prog, static_cast<int>(opts.size()), opts.data());
  size_t n = 0;
  api_->log_size(prog, &n);
  std::string log(n, '\0');
  if (n > 0) api_->log(prog, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  if (status != 0) {
    api_->destroy(&prog);
    fail("compile", "NVRTC {} ({}) failed: {}\n{}\nsource:\n{}", version(), arch, api_->error_string(status), log, source);
  }
  const bool cubin = arch.starts_with("sm_");
  size_t size = 0;
  (cubin ? api_->cubin_size : api_->ptx_size)(prog, &size);
  std::string image(size, '\0');
  (cubin ? api_->cubin : api_->ptx)(prog, image.data());
  api_->destroy(&prog);
  return image;
}

}  // namespace tr
