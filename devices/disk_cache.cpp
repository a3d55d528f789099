#include "devices/disk_cache.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/error.h"
#include "core/interrupt.h"

extern char** environ;

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

// The command runs in its own process group, so that Ctrl-C reaches this process alone, which ends
// the compiler (the shell and all it started) when the interrupt flag goes up.
int run_command(const std::string& cmd, std::string& output) {
  int out[2];
  if (::pipe(out) != 0) fail("device", "cannot run `{}`: no pipe", cmd);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  const char* argv[] = {"sh", "-c", cmd.c_str(), nullptr};
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, "/bin/sh", &actions, &attr, const_cast<char* const*>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(out[1]);
  if (spawned != 0) {
    ::close(out[0]);
    fail("device", "cannot run `{}`", cmd);
  }
  bool stopped = false;
  char buf[4096];
  for (;;) {
    if (interrupted() && !stopped) {
      ::kill(-pid, SIGKILL);
      stopped = true;
    }
    pollfd p{.fd = out[0], .events = POLLIN, .revents = 0};
    // a tenth of a second between looks at the interrupt flag
    if (::poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n > 0) output.append(buf, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  ::close(out[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (stopped) throw_interrupt();
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace tr
