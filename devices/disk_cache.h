#pragma once
// The on-disk compile cache shared by the devices that compile to files: $XDG_CACHE_HOME/tinyrepl
// (or ~/.cache/tinyrepl), mode 0700, each entry named by a hash of what produced it and written by
// an atomic rename, so a re-run compiles nothing and two processes never see half a file.
#include <cstdint>
#include <functional>
#include <string>

namespace tr {

std::string cache_dir();
uint64_t fnv1a(const std::string& text);

// The path of the cached file for `key`; when absent, `build(workdir)` makes it inside a private
// temporary folder and returns its path there, and it is moved into the cache.
std::string cached_file(const std::string& key, const std::string& ext,
                        const std::function<std::string(const std::string& workdir)>& build, bool& cached);

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

// Runs a shell command; returns its exit status and fills `output` with what it printed.
int run_command(const std::string& cmd, std::string& output);

}  // namespace tr
