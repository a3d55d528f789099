#include "devices/disk_cache.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/error.h"

namespace tr {

namespace fs = std::filesystem;

std::string cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string base = xdg && *xdg ? xdg : fmt::format("{}/.cache", home && *home ? home : "/tmp");
  const std::string dir = base + "/tinyrepl";
  std::error_code ec;
  fs::create_directories(base, ec);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) fail("device", "cannot create the cache folder {}", dir);
  ::chmod(dir.c_str(), 0700);
  return dir;
}

uint64_t fnv1a(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

TempDir::TempDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = fmt::format("{}/tinyrepl.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!::mkdtemp(templ.data())) fail("device", "cannot create a temporary folder in {}", tmp ? tmp : "/tmp");
  path_ = templ;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::string cached_file(const std::string& key, const std::string& ext,
                        const std::function<std::string(const std::string& workdir)>& build, bool& cached) {
  const std::string dir = cache_dir();
  const std::string path = fmt::format("{}/{:016x}{}", dir, fnv1a(key), ext);
  cached = fs::exists(path);
  if (cached) return path;
  const TempDir work;
  const std::string made = build(work.path());
  // copy next to the final name first: a rename within one folder is atomic
  std::string staging = fmt::format("{}/.tmp.XXXXXX", dir);
  const int fd = ::mkstemp(staging.data());
  if (fd < 0) fail("device", "cannot write into the cache folder {}", dir);
  ::close(fd);
  std::error_code ec;
  fs::copy_file(made, staging, fs::copy_options::overwrite_existing, ec);
  if (ec || ::rename(staging.c_str(), path.c_str()) != 0) {
    fs::remove(staging, ec);
    fail("device", "cannot store {} in the cache", path);
  }
  return path;
}

int run_command(const std::string& cmd, std::string& output) {
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) fail("device", "cannot run `{}`", cmd);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) output.append(buf, n);
  const int status = ::pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace tr
