#include "devices/disk_cache.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <fcntl.h>
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

// An entry is the bytes as built, then the key they were built from, then a trailer: kSumMark, the
// key's length and the FNV-1a hash of bytes and key (8 bytes each, little endian). Bytes changed on disk
// and an entry that another key's kernel took the name of (files swapped, a hash collision) are found
// before anything loads them. A loader that maps files (dlopen) ignores bytes after the ELF's last
// section; those that read bytes take cached_bytes().
constexpr std::string_view kSumMark = "tr-sum2\n";
constexpr size_t kTrailer = kSumMark.size() + 2 * sizeof(uint64_t);
// No kernel's entry comes near this: a larger file is not one this cache wrote, and is not read.
constexpr uintmax_t kMaxEntryBytes = uintmax_t{1} << 30;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put_u64(std::string& out, uint64_t v) {
  for (size_t i = 0; i < sizeof v; i++, v >>= 8) out += static_cast<char>(v & 0xff);
}
uint64_t get_u64(std::string_view bytes) {
  uint64_t v = 0;
  for (size_t i = sizeof v; i-- > 0;) v = (v << 8) | static_cast<unsigned char>(bytes[i]);
  return v;
}

std::string entry_bytes(const std::string& payload, const std::string& key) {
  std::string out = payload + key;
  const uint64_t sum = fnv1a(out);
  out += kSumMark;
  put_u64(out, key.size());
  put_u64(out, sum);
  return out;
}

// What an entry file holds: its bytes as built when it is intact and was written for key, else why
// it is not (`absent` when there is no file).
struct EntryRead {
  std::string payload;
  std::string why;
  bool absent = false;
};

EntryRead bad(std::string why) { return {.payload = {}, .why = std::move(why), .absent = false}; }

EntryRead read_entry(const std::string& path, const std::string& key) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {.payload = {}, .why = "absent", .absent = true};
  // a fifo would block the read, a link to /dev/zero never end it, a folder fail it
  if (!S_ISREG(st.st_mode)) return bad("it is not a regular file");
  if (static_cast<uintmax_t>(st.st_size) > kMaxEntryBytes) return bad("it is larger than any kernel's entry");
  std::ifstream in(path, std::ios::binary);
  std::string bytes(static_cast<size_t>(st.st_size), '\0');
  in.read(bytes.data(), st.st_size);
  if (in.gcount() != st.st_size) return bad("it could not be read whole");
  const std::string_view b(bytes);
  if (b.size() < kTrailer || b.substr(b.size() - kTrailer, kSumMark.size()) != kSumMark)
    return bad("it has no checksum: cut short or overwritten");
  const uint64_t key_size = get_u64(b.substr(b.size() - 2 * sizeof(uint64_t)));
  if (key_size > b.size() - kTrailer) return bad("its bytes do not match its checksum");
  const size_t body = b.size() - kTrailer;
  if (fnv1a(bytes.substr(0, body)) != get_u64(b.substr(b.size() - sizeof(uint64_t))))
    return bad("its bytes do not match its checksum");
  if (b.substr(body - key_size, key_size) != key) return bad("it holds another kernel than its name says");
  bytes.resize(body - key_size);
  return {.payload = std::move(bytes), .why = {}, .absent = false};
}

// The size limit of the cache folder: TINYREPL_CACHE_LIMIT, a number of bytes with an optional K, M or
// G; 512M when unset or not such a number (with one warning).
uintmax_t cache_limit() {
  static const uintmax_t limit = [] {
    constexpr uintmax_t kDefault = uintmax_t{512} << 20;
    const char* text = std::getenv("TINYREPL_CACHE_LIMIT");
    if (!text || !*text) return kDefault;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(text, &end, 10);
    const std::string unit(end);
    const int shift = unit.empty() ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : -1;
    if (end == text || shift < 0 || n == 0) {
      std::cerr << "tinyrepl: warning: TINYREPL_CACHE_LIMIT=" << text << " is not a size such as 200M: the cache keeps 512M\n";
      return kDefault;
    }
    return static_cast<uintmax_t>(n) << shift;
  }();
  return limit;
}

// Keeps the folder under its limit: the entries least recently used (a hit sets an entry's time) go
// first, down to nine tenths of it. Staging files an hour old are left by processes that were killed
// mid-store. Returns the bytes the folder holds after it.
uintmax_t evict(const std::string& dir) {
  struct Entry {
    fs::path path;
    fs::file_time_type used;
    uintmax_t bytes;
  };
  std::vector<Entry> all;
  uintmax_t total = 0;
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::error_code stat_ec;
    if (!e.is_regular_file(stat_ec)) continue;
    const Entry x{e.path(), e.last_write_time(stat_ec), e.file_size(stat_ec)};
    if (stat_ec) continue;
    if (x.path.filename().string().starts_with(".tmp.")) {
      if (now - x.used > std::chrono::hours(1)) fs::remove(x.path, stat_ec);
      continue;
    }
    total += x.bytes;
    all.push_back(x);
  }
  if (total <= cache_limit()) return total;
  std::sort(all.begin(), all.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& x : all) {
    if (total <= cache_limit() / 10 * 9) break;
    if (fs::remove(x.path, ec)) total -= x.bytes;
  }
  return total;
}

// What this process knows of the folder's size: a scan's (evict's), grown by each entry it stores. The
// folder is scanned again when that passes the limit, and after every kRescan stores, which counts
// what other processes stored meanwhile: so the folder stays near its limit (over it by at most what
// other processes stored since a scan). A scan at every store had the test suite, whose cache holds
// tens of thousands of entries, spend a third of its time in stat.
void stored(const std::string& dir, uintmax_t bytes) {
  constexpr int kRescan = 1000;
  static std::mutex m;
  static std::string known_dir;
  static std::optional<uintmax_t> known;
  static int stores = 0;
  const std::lock_guard lock(m);
  if (dir != known_dir) known.reset();
  known_dir = dir;
  if (known && *known + bytes <= cache_limit() && ++stores < kRescan) {
    *known += bytes;
    return;
  }
  known = evict(dir);
  stores = 0;
}

// The entry for key, built from the file made: first written next to its place, then renamed, which
// is atomic within one folder.
bool store(const std::string& made, const std::string& key, const std::string& dir, const std::string& path) {
  std::string staging = fmt::format("{}/.tmp.XXXXXX", dir);
  const int fd = ::mkstemp(staging.data());
  if (fd < 0) return false;
  ::close(fd);
  {
    const std::string bytes = entry_bytes(read_all(made), key);
    std::ofstream out(staging, std::ios::binary | std::ios::trunc);
    out << bytes;
    out.flush();
    if (out && ::rename(staging.c_str(), path.c_str()) == 0) {
      stored(dir, bytes.size());
      return true;
    }
  }
  std::error_code ec;
  fs::remove(staging, ec);
  return false;
}

// Whether the entry at path is intact and key's: a hit counts as a use for eviction; anything else
// there is dropped, with one warning.
bool intact(const std::string& path, const std::string& key) {
  const EntryRead r = read_entry(path, key);
  if (r.why.empty()) {
    ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
    return true;
  }
  if (!r.absent) drop_damaged(path, r.why);
  return false;
}

}  // namespace

std::string cached_bytes(const std::string& path) {
  std::string bytes = read_all(path);
  if (bytes.size() < kTrailer) return "";
  const uint64_t key_size = get_u64(std::string_view(bytes).substr(bytes.size() - 2 * sizeof(uint64_t)));
  bytes.resize(bytes.size() - kTrailer - std::min<uint64_t>(key_size, bytes.size() - kTrailer));
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
  if (dir.empty() || !intact(path, key)) return std::nullopt;
  return cached_bytes(path);
}

void cache_text(const std::string& key, const std::string& text) {
  const std::string dir = usable_cache_dir();
  if (dir.empty()) return;
  const TempDir work;
  const std::string made = work.path() + "/text";
  std::ofstream(made, std::ios::binary) << text;
  if (!store(made, key, dir, dir + "/" + entry_name(key, ".txt")))
    warn_once(said_unwritable, fmt::format("cannot write into the cache folder {} (read-only or full): BEAM's choices "
                                           "and the roofline's peaks are not kept", dir));
}

std::string cached_file(const std::string& key, const std::string& ext,
                        const std::function<std::string(const std::string& workdir)>& build, bool& cached) {
  const std::string name = entry_name(key, ext);
  const std::string dir = usable_cache_dir();
  const std::string path = dir.empty() ? "" : dir + "/" + name;
  cached = !path.empty() && intact(path, key);
  if (cached) return path;
  const std::string kept = private_dir() + "/" + name;
  if (intact(kept, key)) return kept;
  const TempDir work;
  const std::string made = build(work.path());
  if (!dir.empty() && store(made, key, dir, path)) return path;
  if (!dir.empty())
    warn_once(said_unwritable, fmt::format("cannot write into the cache folder {} (read-only or full): kernels are "
                                           "compiled without the cache", dir));
  if (!store(made, key, private_dir(), kept)) fail("device", "cannot keep the compiled {} in {}", name, private_dir());
  return kept;
}

void drop_damaged(const std::string& path, const std::string& why) {
  warn_once(said_damaged, fmt::format("the compile cache's {} is damaged ({}): compiled again", path, why));
  std::error_code ec;
  struct stat st {};
  // a folder in an entry's place goes with what it holds; a link goes, never what it points to
  if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) fs::remove_all(path, ec);
  else fs::remove(path, ec);
}

// The command runs in its own process group, so that Ctrl-C reaches this process alone, which ends
// the compiler (the shell and all it started) when the interrupt flag goes up.
int run_command(const std::string& cmd, std::string& output, const std::string& tmpdir) {
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
  // the environment, with TMPDIR in place of the caller's where one is given
  const std::string tmp_var = "TMPDIR=" + tmpdir;
  std::vector<char*> env;
  for (char** e = environ; *e; e++)
    if (tmpdir.empty() || !std::string_view(*e).starts_with("TMPDIR=")) env.push_back(*e);
  if (!tmpdir.empty()) env.push_back(const_cast<char*>(tmp_var.c_str()));
  env.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, "/bin/sh", &actions, &attr, const_cast<char* const*>(argv), env.data());
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
