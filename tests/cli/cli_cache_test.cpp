// The compile cache under abuse: two processes filling one cache at once, entries truncated or
// overwritten with garbage, a cache folder that cannot be written. Each run must print the right
// values, exit 0 and say at most one warning; none may crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <sys/stat.h>

#include "core/runtime/device.h"
#include "tests/cli_testing.h"

namespace tr::repl {
namespace {

namespace fs = std::filesystem;
using testing::Result;
using testing::run_binary;
using testing::CacheHome;
using testing::TempDir;

// Kernels of three kinds: element-wise, a reduce, a matmul.
constexpr const char* kScript =
    "x = arange(64).float()\nprint((x * 3 + 1).sum())\nprint((x.reshape(8, 8) @ x.reshape(8, 8)).max())\n";
constexpr const char* kValues[] = {"6112.0\n", "16996.0\n"};

Result run_script(const std::string& device = "CPU", const std::vector<std::string>& env = {}) {
  return run_binary({"--device", device, "--debug", "2", "-"}, kScript, env);
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

// Each entry holds the key it was built for: two entries' files swapped (both intact) would run each
// other's kernels; they are found and compiled again.
TEST(CliCache, EntriesSwappedAreFoundByTheirKeys) {
  const TempDir home;
  const CacheHome cache(home.path().string());
  ASSERT_EQ(run_script().status, 0);
  std::vector<fs::path> so;
  for (const fs::path& p : entries(home.path().string()))
    if (p.extension() == ".so") so.push_back(p);
  ASSERT_GE(so.size(), 2u);
  const fs::path aside = home.file("aside");
  fs::rename(so[0], aside);
  fs::rename(so[1], so[0]);
  fs::rename(aside, so[1]);
  const Result r = run_script();
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* v : kValues) EXPECT_CONTAINS(r.out, v);
  EXPECT_EQ(count(r.err, "warning:"), 1) << r.err;
  EXPECT_CONTAINS(r.err, "holds another kernel than its name says");
  const Result again = run_script();
  EXPECT_EQ(again.err, "");
  EXPECT_EQ(count(again.out, "(cached)"), kernel_lines(again.out, "CPU")) << again.out;
}

// What is not a regular file in an entry's place is never read: a fifo would block the run, a link to
// /dev/zero read until memory ran out, a folder fail every run. Each is replaced by the entry.
TEST(CliCache, AFifoALinkOrAFolderInAnEntrysPlaceIsReplaced) {
  for (const std::string kind : {"fifo", "link", "folder"}) {
    const TempDir home;
    const CacheHome cache(home.path().string());
    ASSERT_EQ(run_script().status, 0);
    for (const fs::path& p : entries(home.path().string())) {
      fs::remove(p);
      if (kind == "fifo") {
        ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
      }
      if (kind == "link") fs::create_symlink("/dev/zero", p);
      if (kind == "folder") fs::create_directories(p / "inside");
    }
    const Result r = run_script();
    EXPECT_EQ(r.status, 0) << kind << ": " << r.err;
    for (const char* v : kValues) EXPECT_CONTAINS(r.out, v);
    EXPECT_EQ(count(r.err, "warning:"), 1) << kind << ": " << r.err;
    EXPECT_CONTAINS(r.err, "not a regular file");
    const Result again = run_script();
    EXPECT_EQ(again.err, "") << kind;
    EXPECT_EQ(count(again.out, "(cached)"), kernel_lines(again.out, "CPU")) << kind << ": " << again.out;
  }
}

// TINYREPL_CACHE_LIMIT bounds the folder: past it the entries least recently used go first (a hit
// counts as a use), down to nine tenths of the limit.
TEST(CliCache, ALimitEvictsTheEntriesLeastRecentlyUsed) {
  const TempDir home;
  const CacheHome cache(home.path().string());
  ASSERT_EQ(run_script().status, 0);
  std::vector<fs::path> before = entries(home.path().string());
  ASSERT_GE(before.size(), 3u);
  // a hit makes an entry the most recently used
  const auto long_ago = fs::file_time_type::clock::now() - std::chrono::hours(24);
  for (const fs::path& p : before) fs::last_write_time(p, long_ago);
  ASSERT_EQ(run_script().status, 0);
  for (const fs::path& p : before) {
    EXPECT_GT(fs::last_write_time(p), long_ago) << p;
  }
  // the oldest goes first: with room for a little more than all, one new kernel evicts the one made
  // oldest (and as many more as take the folder under nine tenths of the limit)
  uintmax_t total = 0;
  for (const fs::path& p : before) total += fs::file_size(p);
  fs::last_write_time(before[1], long_ago);
  const std::string limit = fmt::format("TINYREPL_CACHE_LIMIT={}", total + 100);
  const Result r = run_binary({"--device", "CPU", "-"}, "print((arange(16).float() * 7 - 2).max())\n", {limit});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_CONTAINS(r.out, "103.0");
  EXPECT_EQ(r.err, "");
  EXPECT_FALSE(fs::exists(before[1])) << "the least recently used entry stays";
  uintmax_t after = 0;
  for (const fs::path& p : entries(home.path().string())) after += fs::file_size(p);
  EXPECT_LE(after, (total + 100) / 10 * 9);
  // a limit that is not a size is said once, and the default kept
  const Result bad = run_binary({"--device", "CPU", "-"}, "print((arange(16).float() * 5).max())\n", {"TINYREPL_CACHE_LIMIT=lots"});
  EXPECT_EQ(bad.status, 0);
  EXPECT_CONTAINS(bad.err, "TINYREPL_CACHE_LIMIT=lots is not a size");
}

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
