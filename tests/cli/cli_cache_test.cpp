// The compile cache under abuse: two processes filling one cache at once, entries truncated or
// overwritten with garbage, a cache folder that cannot be written. Each run must print the right
// values, exit 0 and say at most one warning; none may crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/runtime/device.h"
#include "tests/cli_testing.h"

namespace tr::repl {
namespace {

namespace fs = std::filesystem;
using testing::Result;
using testing::run_binary;
using testing::TempDir;

// Kernels of three kinds: element-wise, a reduce, a matmul.
constexpr const char* kScript =
    "x = arange(64).float()\nprint((x * 3 + 1).sum())\nprint((x.reshape(8, 8) @ x.reshape(8, 8)).max())\n";
constexpr const char* kValues[] = {"6112.0\n", "16996.0\n"};

// XDG_CACHE_HOME for the binaries this test runs (run_binary passes the test's own on).
class CacheHome {
 public:
  explicit CacheHome(const std::string& dir) : old_(std::getenv("XDG_CACHE_HOME") ? std::getenv("XDG_CACHE_HOME") : "") {
    setenv("XDG_CACHE_HOME", dir.c_str(), 1);
  }
  ~CacheHome() {
    if (old_.empty()) unsetenv("XDG_CACHE_HOME");
    else setenv("XDG_CACHE_HOME", old_.c_str(), 1);
  }
  CacheHome(const CacheHome&) = delete;
  CacheHome& operator=(const CacheHome&) = delete;

 private:
  std::string old_;
};

Result run_script(const std::string& device = "CPU") {
  return run_binary({"--device", device, "--debug", "2", "-"}, kScript);
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
  return n;
}

// DEBUG 2's kernel lines on dev (its copies, and the read-backs listed on HOST, left out)
int kernel_lines(const std::string& text, const std::string& dev) {
  int n = 0;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.size(), text.find('\n', at));
    const std::string line = text.substr(at, end - at);
    n += line.rfind("*** " + dev, 0) == 0 && line.find(" copy ") == std::string::npos;
    at = end + 1;
  }
  return n;
}

std::vector<fs::path> entries(const std::string& cache) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(cache + "/tinyrepl")) out.push_back(e.path());
  return out;
}

TEST(CliCache, TwoProcessesFillOneCacheAtOnce) {
  const TempDir home;
  const CacheHome cache(home.path().string());
  Result a, b;
  std::thread first([&] { a = run_script(); });
  std::thread second([&] { b = run_script(); });
  first.join();
  second.join();
  for (const Result* r : {&a, &b}) {
    EXPECT_EQ(r->status, 0) << r->err;
    for (const char* v : kValues) EXPECT_CONTAINS(r->out, v);
    EXPECT_EQ(r->err, "");
  }
  EXPECT_FALSE(entries(home.path().string()).empty());
  for (const fs::path& p : entries(home.path().string()))
    EXPECT_FALSE(p.filename().string().starts_with(".tmp")) << "a half-written entry is left: " << p;
  // a third run finds every kernel there
  const Result c = run_script();
  EXPECT_EQ(count(c.out, "(cached)"), kernel_lines(c.out, "CPU")) << c.out;
}

TEST(CliCache, TruncatedOrOverwrittenEntriesAreCompiledAgainWithOneWarning) {
  const TempDir home;
  const CacheHome cache(home.path().string());
  ASSERT_EQ(run_script().status, 0);
  for (const bool truncate : {true, false}) {
    for (const fs::path& p : entries(home.path().string())) {
      const auto size = fs::file_size(p);
      if (truncate) {
        fs::resize_file(p, size / 2);
      } else {
        std::ofstream garbage(p, std::ios::binary | std::ios::trunc);
        for (uintmax_t i = 0; i < size; i++) garbage.put(static_cast<char>(i * 131 + 7));
      }
    }
    const Result r = run_script();
    EXPECT_EQ(r.status, 0) << r.err;
    for (const char* v : kValues) EXPECT_CONTAINS(r.out, v);
    EXPECT_EQ(count(r.err, "warning:"), 1) << r.err;
    EXPECT_CONTAINS(r.err, "is damaged");
    // they were replaced: the next run loads them without a word
    const Result again = run_script();
    for (const char* v : kValues) EXPECT_CONTAINS(again.out, v);
    EXPECT_EQ(again.err, "");
  }
}

// A bit flipped inside an entry leaves a file that may still load and run, wrongly: each device's
// loader finds it by the checksum written with the entry, and compiles again.
class CliCacheBitFlip : public ::testing::TestWithParam<std::string> {};

TEST_P(CliCacheBitFlip, AFlippedBitIsFoundByTheChecksumAndCompiledAgain) {
  const std::string dev = GetParam();
  if (const std::string why = device_status(dev); !why.empty()) GTEST_SKIP() << dev << " cannot open: " << why;
  const TempDir home;
  const CacheHome cache(home.path().string());
  ASSERT_EQ(run_script(dev).status, 0);
  ASSERT_FALSE(entries(home.path().string()).empty());
  for (const fs::path& p : entries(home.path().string())) {
    std::fstream f(p, std::ios::binary | std::ios::in | std::ios::out);
    const auto middle = static_cast<std::streamoff>(fs::file_size(p) / 2);
    f.seekg(middle);
    const char byte = static_cast<char>(f.get());
    f.seekp(middle);
    f.put(static_cast<char>(byte ^ 0x10));
  }
  const Result r = run_script(dev);
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* v : kValues) EXPECT_CONTAINS(r.out, v);
  EXPECT_EQ(count(r.err, "warning:"), 1) << r.err;
  EXPECT_CONTAINS(r.err, "do not match its checksum");
  EXPECT_EQ(count(r.out, "(cached)"), 0) << "every damaged kernel compiled again\n" << r.out;
  const Result again = run_script(dev);
  for (const char* v : kValues) EXPECT_CONTAINS(again.out, v);
  EXPECT_EQ(again.err, "");
  EXPECT_EQ(count(again.out, "(cached)"), kernel_lines(again.out, dev)) << again.out;
}

INSTANTIATE_TEST_SUITE_P(EveryLoader, CliCacheBitFlip, ::testing::Values("CPU", "LLVM", "OPENCL", "CUDA"),
                         [](const auto& info) { return info.param; });

TEST(CliCache, ACacheFolderThatCannotBeWrittenRunsUncachedWithOneWarning) {
  const TempDir home;
  const CacheHome cache(home.path().string());
  // a file where the folder should be: it can be neither created nor written into (as root, whom a
  // read-only mode would not stop, too)
  std::ofstream(home.file("tinyrepl")) << "not a folder";
  const Result r = run_script();
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* v : kValues) EXPECT_CONTAINS(r.out, v);
  EXPECT_EQ(count(r.err, "warning:"), 1) << r.err;
  EXPECT_CONTAINS(r.err, "without the cache");
}

}  // namespace
}  // namespace tr::repl
