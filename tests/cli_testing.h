#pragma once
// Running tinyrepl in tests: in-process through run_program (fast, and under the sanitizers), or the
// real binary as a user's shell would, with its own stdin, environment and exit status.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/base/context.h"
#include "repl/app/program.h"

namespace tr::repl::testing {

struct Result {
  int status = -1;
  std::string out, err;
};

// run_program with piped input (no terminal). The process-wide settings come back as they were.
inline Result run_here(const std::vector<std::string>& args, const std::string& input = "") {
  const Settings saved = settings();
  std::istringstream in(input);
  std::ostringstream out, err;
  Result r;
  r.status = run_program(args, in, out, err, false);
  r.out = out.str();
  r.err = err.str();
  settings() = saved;
  return r;
}

// A folder of its own for each test, removed at the end.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tinyrepl-test-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name)) << text;
    return file(name);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The binary with args; input on its stdin; env entries ("DEBUG=2") on top of a clean environment
// that keeps PATH, HOME and the compile cache's folder.
inline Result run_binary(const std::vector<std::string>& args, const std::string& input = "",
                         const std::vector<std::string>& env = {}) {
  const TempDir io;
  const std::string in_path = io.write("stdin", input), out_path = io.file("stdout"), err_path = io.file("stderr");
  std::vector<std::string> envs;
  for (const char* keep : {"PATH", "HOME", "XDG_CACHE_HOME", "ASAN_OPTIONS", "UBSAN_OPTIONS"})
    if (const char* v = std::getenv(keep)) envs.push_back(std::string(keep) + "=" + v);
  envs.insert(envs.end(), env.begin(), env.end());
  std::vector<std::string> argv_s{TINYREPL_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv, envp;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (std::string& e : envs) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int in = open(in_path.c_str(), O_RDONLY), out = open(out_path.c_str(), O_WRONLY | O_CREAT, 0600),
              err = open(err_path.c_str(), O_WRONLY | O_CREAT, 0600);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  Result r;
  r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

// XDG_CACHE_HOME while it lives, for this process and the binaries it runs (run_binary passes the
// test's own on).
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

// Each line of --json output as an object; a line that is not JSON fails the test.
inline std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> events;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    try {
      events.push_back(nlohmann::json::parse(line));
    } catch (const nlohmann::json::exception& e) {
      ADD_FAILURE() << "not JSON: " << line;
    }
  }
  return events;
}

inline bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace tr::repl::testing

#define EXPECT_CONTAINS(haystack, needle)                                                                        \
  EXPECT_TRUE(::tr::repl::testing::contains(haystack, needle)) << "expected to find: " << (needle) << "\nin:\n" \
                                                               << (haystack)
#define EXPECT_LACKS(haystack, needle)                                                                         \
  EXPECT_FALSE(::tr::repl::testing::contains(haystack, needle)) << "expected not to find: " << (needle)       \
                                                                << "\nin:\n"                                   \
                                                                << (haystack)
