#pragma once
// The command line of SPEC section 1: which form runs, and the settings that override the environment.
#include <optional>
#include <string>
#include <vector>

namespace tr::repl {

enum class Mode {
  Repl,     // interactive: the TUI's place on a terminal, the plain REPL otherwise
  Plain,    // the plain REPL even on a terminal
  Script,   // FILE.tg or `run FILE.tg` ("-" and /dev/stdin read standard input)
  Code,     // -e CODE
  Help,
  Version,
};

struct Options {
  Mode mode = Mode::Repl;
  std::string file;  // Script
  std::string code;  // Code
  bool json = false;
  std::optional<std::string> device;
  std::optional<int> debug;
  bool noopt = false;
  bool online_softmax = false;
  std::optional<int> beam;
  std::optional<int> repeat;
  std::optional<std::string> render;  // the list as given: "c,opencl"
};

// Throws tr::Error("usage") for anything it cannot make sense of.
Options parse_command_line(const std::vector<std::string>& args);

std::string usage_text();
std::string version_text();

}  // namespace tr::repl
