#include "devices/disassembly.h"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <unistd.h>

#include "devices/disk_cache.h"

namespace tr {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> cuda_bins() {
  std::vector<std::string> dirs;
  for (const char* env : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* d = std::getenv(env); d && *d) dirs.push_back(std::string(d) + "/bin");
  dirs.push_back("/usr/local/cuda/bin");
#ifdef TINYREPL_NVDISASM_WHEEL_BIN
  dirs.push_back(TINYREPL_NVDISASM_WHEEL_BIN);
#endif
  std::vector<std::string> once;
  for (const std::string& d : dirs)
    if (std::find(once.begin(), once.end(), d) == once.end()) once.push_back(d);
  return once;
}

}  // namespace

namespace {

// How a disassembler's listing spells a function's heading (its name the first group that matched), the
// source file and line of the instructions that follow (groups 1 and 2), and an instruction (its address
// in hex and its text).
struct ListingSyntax {
  std::regex function, place, instruction;
};

std::vector<AsmInstruction> parse_listing(const std::string& listing, const ListingSyntax& syntax, const std::string& source_file) {
  std::vector<AsmInstruction> out;
  std::string name;
  int line = 0;
  std::smatch m;
  for (const std::string& l : lines_of(listing)) {
    if (std::regex_match(l, m, syntax.function)) {
      name = m[1].matched ? m[1] : m[2];
      line = 0;
    } else if (std::regex_search(l, m, syntax.place)) {
      // another file's line (a header's inlined function) is none of the source's
      const std::string file = m[1];
      line = file == source_file || file.ends_with("/" + source_file) ? std::stoi(m[2]) : 0;
    } else if (!name.empty() && std::regex_match(l, m, syntax.instruction)) {
      out.push_back({.function = name, .address = std::stoull(m[1], nullptr, 16), .text = trimmed(m[2]), .line = line});
    }
  }
  return out;
}

}  // namespace

std::vector<AsmInstruction> parse_objdump(const std::string& listing, const std::string& source_file) {
  // "/tmp/x/kernel.c:12" or "kernel.c:12 (discriminator 3)"
  static const ListingSyntax objdump{.function = std::regex(R"(^[0-9a-f]+ <(.+)>:$)"),
                                     .place = std::regex(R"(^(\S+):(\d+)( \(discriminator \d+\))?$)"),
                                     .instruction = std::regex(R"(^\s+([0-9a-f]+):\t(.*)$)")};
  return parse_listing(listing, objdump, source_file);
}

std::vector<AsmInstruction> parse_nvdisasm(const std::string& listing) {
  // nvdisasm: "E_4:" heads a kernel, cuobjdump: "Function : E_4"; NVRTC names the source kernel.cu
  static const ListingSyntax nvdisasm{.function = std::regex(R"(^(?:\s*Function : (\S+)|([A-Za-z_$][\w$]*):)\s*$)"),
                                      .place = std::regex(R"re(//## File "(.*)", line (\d+))re"),
                                      .instruction = std::regex(R"(^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*(?:/\*.*\*/)?\s*$)")};
  return parse_listing(listing, nvdisasm, "kernel.cu");
}

bool same_code(const std::vector<AsmInstruction>& a, const std::vector<AsmInstruction>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const AsmInstruction& x, const AsmInstruction& y) {
    return x.function == y.function && x.address == y.address && x.text == y.text;
  });
}

std::optional<std::string> on_path(const std::string& name) {
  std::string out;
  if (run_command("command -v " + name, out) != 0 || trimmed(out).empty()) return std::nullopt;
  return trimmed(out).substr(0, trimmed(out).find('\n'));
}

std::optional<std::string> cuda_tool(const std::string& name) {
  if (const auto path = on_path(name)) return path;
  for (const std::string& d : cuda_bins())
    if (const std::string path = fmt::format("{}/{}", d, name); access(path.c_str(), X_OK) == 0) return path;
  return std::nullopt;
}

std::string cuda_tool_places() {
  std::vector<std::string> places{"PATH"};
  for (const std::string& d : cuda_bins()) places.push_back(d);
  return fmt::format("{}", fmt::join(places, ", "));
}

}  // namespace tr
