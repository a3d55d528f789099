#include "devices/object_compiler.h"

#include <fstream>

#include <fmt/format.h>

#include "core/base/error.h"
#include "devices/disk_cache.h"

namespace tr {

std::string ObjectCompiler::key(const std::string& text, std::string_view extra) const {
  // the key the devices have always used when nothing is added, so their cached objects stay valid
  return extra.empty() ? version + flags + text : fmt::format("{}{} {}{}", version, flags, extra, text);
}

std::string ObjectCompiler::build(const std::string& dir, const std::string& text, std::string_view extra) const {
  std::ofstream(dir + "/" + file) << text;
  std::string log;
  const std::string cmd = fmt::format("{} {}{}{} -o {}/kernel.so {}/{} {}", program, flags, extra.empty() ? "" : " ", extra,
                                      dir, dir, file, libs);
  if (run_command(cmd, log, dir) != 0) fail("compile", "{} failed:\n{}\nsource:\n{}", program, log, text);
  return dir + "/kernel.so";
}

std::string ObjectCompiler::object(const std::string& text, std::string_view extra, bool& cached) const {
  return cached_file(key(text, extra), ".so", [&](const std::string& dir) { return build(dir, text, extra); }, cached);
}

std::string compiler_version(const std::string& program, std::string_view needed_for) {
  std::string version;
  if (run_command(program + " --version", version) != 0)
    fail("device", "{}, and `{}` does not run: {}", needed_for, program, version);
  return version.substr(0, version.find('\n'));
}

}  // namespace tr
