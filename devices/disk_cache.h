#pragma once
// The on-disk compile cache shared by the devices that compile to files: $XDG_CACHE_HOME/tinyrepl
// (or ~/.cache/tinyrepl), mode 0700, each entry named by a hash of what produced it and written by
// an atomic rename, so a re-run compiles nothing and two processes never see half a file.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/base/interrupt.h"

namespace tr {

std::string cache_dir();
uint64_t fnv1a(const std::string& text);

// The path of the cached file for `key`; when absent, `build(workdir)` makes it inside a private
// temporary folder and returns its path there, and it is moved into the cache. A cache folder that
// cannot be created or written (read-only, full) costs one warning on stderr; the file is then kept
// in a folder of this process's own until it exits, uncached.
std::string cached_file(const std::string& key, const std::string& ext,
                        const std::function<std::string(const std::string& workdir)>& build, bool& cached);

// Each entry is written with its key and a checksum of its bytes, checked before cached_file returns
// it: an entry changed on disk (cut short, overwritten, a bit flipped), one holding another key's
// kernel, and anything in its place that is not a regular file (a fifo, a link, a folder) are removed
// and built again, with one warning. The folder keeps under TINYREPL_CACHE_LIMIT (512M by default):
// past it, the entries least recently used go.
// The bytes of an entry as built, without its checksum: for loaders that read the file (OpenCL's
// binaries, CUDA's images); dlopen maps the file itself and never reads the checksum at its end.
std::string cached_bytes(const std::string& path);

// Small texts kept under a key (BEAM's choices, the roofline's peaks): the text, when an intact entry holds one; and keeping
// one, which replaces what the key held. An unwritable cache costs one warning and keeps nothing.
std::optional<std::string> cached_text(const std::string& key);
void cache_text(const std::string& key, const std::string& text);

// Removes a damaged cached file, saying so once per process.
void drop_damaged(const std::string& path, const std::string& why);

// cached_file, then load(path). A cached entry that still does not load (a compiler or driver that
// changed) is removed and built again, with one warning on stderr; two processes may do this at once,
// each writing its own copy before renaming it into place.
template <typename Load>
auto load_cached(const std::string& key, const std::string& ext,
                 const std::function<std::string(const std::string& workdir)>& build, bool& cached, Load load)
    -> decltype(load(std::string())) {
  const std::string path = cached_file(key, ext, build, cached);
  if (!cached) return load(path);
  try {
    return load(path);
  } catch (const Error& e) {
    if (is_interrupt(e)) throw;
    drop_damaged(path, fmt::format("it does not load: {}", e.what()));
  }
  return load(cached_file(key, ext, build, cached));
}

// A private temporary folder, removed with everything in it when this goes out of scope.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs a shell command; returns its exit status and fills `output` with what it printed. With a tmpdir,
// the command's TMPDIR is that folder: a compiler's own temporary files then go where the caller
// removes them, also when Ctrl-C stops the compiler half way.
int run_command(const std::string& cmd, std::string& output, const std::string& tmpdir = "");

}  // namespace tr
