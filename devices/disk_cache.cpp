#include "devices/disk_cache.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/base/error.h"
#include "core/base/interrupt.h"

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

namespace {

// One warning per kind of trouble and process: a read-only cache would otherwise warn at every kernel.
void warn_once(std::atomic<bool>& said, const std::string& text) {
  if (!said.exchange(true)) std::cerr << "tinyrepl: warning: " << text << "\n" << std::flush;
}

std::atomic<bool> said_unwritable{false}, said_damaged{false};

// Where files built without a usable cache stay until the process exits (a loaded program may still
// need its file, and a later load of the same key finds it here).
const std::string& private_dir() {
  static const TempDir dir;
  return dir.path();
}

// An entry ends with a trailer: kSumMark, then the FNV-1a hash of the bytes before it (little endian),
// written with the entry, so that bytes changed on disk are found before anything loads them. A
// loader that maps files (dlopen) ignores bytes after the ELF's last section; those that read bytes
// take cached_bytes().
constexpr std::string_view kSumMark = "tr-sum1\n";
constexpr size_t kTrailer = kSumMark.size() + sizeof(uint64_t);

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string trailer(const std::string& payload) {
  uint64_t h = fnv1a(payload);
  std::string out(kSumMark);
  for (size_t i = 0; i < sizeof h; i++, h >>= 8) out += static_cast<char>(h & 0xff);
  return out;
}

// Why the entry's bytes are not those written, or "" when they are.
std::string damage(const std::string& path) {
  const std::string bytes = read_all(path);
  if (bytes.size() < kTrailer || std::string_view(bytes).substr(bytes.size() - kTrailer, kSumMark.size()) != kSumMark)
    return "it has no checksum: cut short or overwritten";
  const std::string payload = bytes.substr(0, bytes.size() - kTrailer);
  if (bytes.substr(payload.size()) != trailer(payload)) return "its bytes do not match its checksum";
  return "";
}

// Copies made into dir under name, with its trailer: first next to it, then a rename, which is atomic
// within one folder.
bool store(const std::string& made, const std::string& dir, const std::string& path) {
  std::string staging = fmt::format("{}/.tmp.XXXXXX", dir);
  const int fd = ::mkstemp(staging.data());
  if (fd < 0) return false;
  ::close(fd);
  const std::string payload = read_all(made);
  {
    std::ofstream out(staging, std::ios::binary | std::ios::trunc);
    out << payload << trailer(payload);
    out.flush();
    if (out && ::rename(staging.c_str(), path.c_str()) == 0) return true;
  }
  std::error_code ec;
  fs::remove(staging, ec);
  return false;
}

// The entry at path when its checksum holds; a damaged one is dropped, with one warning.
bool intact(const std::string& path) {
  if (!fs::exists(path)) return false;
  const std::string why = damage(path);
  if (why.empty()) return true;
  drop_damaged(path, why);
  return false;
}

}  // namespace

std::string cached_bytes(const std::string& path) {
  std::string bytes = read_all(path);
  bytes.resize(bytes.size() >= kTrailer ? bytes.size() - kTrailer : 0);
  return bytes;
}

namespace {

std::string entry_name(const std::string& key, const std::string& ext) {
  return fmt::format("{:016x}{}", fnv1a(std::string(kSumMark) + key), ext);  // entries with a trailer
}

// The cache folder, or "" (with one warning) when it cannot be made.
std::string usable_cache_dir() {
  try {
    return cache_dir();
  } catch (const Error& e) {
    warn_once(said_unwritable, fmt::format("{}: kernels are compiled without the cache", e.what()));
  }
  return "";
}

}  // namespace

std::optional<std::string> cached_text(const std::string& key) {
  const std::string dir = usable_cache_dir();
  const std::string path = dir + "/" + entry_name(key, ".txt");
  if (dir.empty() || !intact(path)) return std::nullopt;
  return cached_bytes(path);
}

void cache_text(const std::string& key, const std::string& text) {
  const std::string dir = usable_cache_dir();
  if (dir.empty()) return;
  const TempDir work;
  const std::string made = work.path() + "/text";
  std::ofstream(made, std::ios::binary) << text;
  if (!store(made, dir, dir + "/" + entry_name(key, ".txt")))
    warn_once(said_unwritable, fmt::format("cannot write into the cache folder {} (read-only or full): BEAM's choices "
                                           "are not kept", dir));
}

std::string cached_file(const std::string& key, const std::string& ext,
                        const std::function<std::string(const std::string& workdir)>& build, bool& cached) {
  const std::string name = entry_name(key, ext);
  const std::string dir = usable_cache_dir();
  const std::string path = dir.empty() ? "" : dir + "/" + name;
  cached = !path.empty() && intact(path);
  if (cached) return path;
  const std::string kept = private_dir() + "/" + name;
  if (intact(kept)) return kept;
  const TempDir work;
  const std::string made = build(work.path());
  if (!dir.empty() && store(made, dir, path)) return path;
  if (!dir.empty())
    warn_once(said_unwritable, fmt::format("cannot write into the cache folder {} (read-only or full): kernels are "
                                           "compiled without the cache", dir));
  if (!store(made, private_dir(), kept)) fail("device", "cannot keep the compiled {} in {}", name, private_dir());
  return kept;
}

void drop_damaged(const std::string& path, const std::string& why) {
  warn_once(said_damaged, fmt::format("the compile cache's {} is damaged ({}): compiled again", path, why));
  std::error_code ec;
  fs::remove(path, ec);
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
