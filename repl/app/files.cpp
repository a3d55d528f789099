#include "repl/app/files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "core/base/error.h"

namespace tr::repl {

std::string read_text_file(const std::string& path) {
  if (path == "-") return std::string(std::istreambuf_iterator<char>(std::cin), {});
  // a directory opens as a stream on Linux and only fails on the first read
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail("io", "cannot read '{}': it is a directory", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("io", "cannot open '{}': {}", path, std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) fail("io", "cannot read '{}': {}", path, std::strerror(errno));
  return text.str();
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail("io", "cannot write '{}': {}", path, std::strerror(errno));
  out << text;
  out.close();
  if (!out) fail("io", "cannot write '{}': {}", path, std::strerror(errno));
}

}  // namespace tr::repl
