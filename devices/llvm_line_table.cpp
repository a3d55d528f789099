#include "devices/llvm_line_table.h"

#include <regex>
#include <sstream>

#include <fmt/format.h>

namespace tr {

std::string with_line_table(const std::string& ir) {
  static const std::regex define(R"(^define .*@([\w.$]+)\(.*\{$)");
  // far above any metadata number the renderers write (they write none)
  constexpr int kFirst = 1000000;
  const int unit = kFirst, file = kFirst + 1, type = kFirst + 2, version = kFirst + 3;
  int next = kFirst + 4, scope = -1;
  std::string out, metadata;
  std::istringstream in(ir);
  std::smatch m;
  int line = 0;
  for (std::string l; std::getline(in, l);) {
    line++;
    const size_t first = l.find_first_not_of(' ');
    const std::string_view t = first == std::string::npos ? std::string_view() : std::string_view(l).substr(first);
    if (std::regex_match(l, m, define)) {
      scope = next++;
      metadata += fmt::format("!{} = distinct !DISubprogram(name: \"{}\", scope: !{}, file: !{}, line: {}, type: !{}, scopeLine: {}, "
                              "spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !{})\n",
                              scope, m[1].str(), file, file, line, type, line, unit);
      l.insert(l.rfind('{'), fmt::format("!dbg !{} ", scope));
    } else if (scope >= 0 && t == "}") {
      scope = -1;
    } else if (scope >= 0 && !t.empty() && !t.ends_with(':') && !t.starts_with(';')) {
      metadata += fmt::format("!{} = !DILocation(line: {}, scope: !{})\n", next, line, scope);
      l += fmt::format(", !dbg !{}", next++);
    }
    out += l + "\n";
  }
  return out + fmt::format(
                   "!llvm.dbg.cu = !{{!{0}}}\n!llvm.module.flags = !{{!{3}}}\n"
                   "!{0} = distinct !DICompileUnit(language: DW_LANG_C99, file: !{1}, isOptimized: true, runtimeVersion: 0, "
                   "emissionKind: LineTablesOnly)\n!{1} = !DIFile(filename: \"kernel.ll\", directory: \"\")\n"
                   "!{2} = !DISubroutineType(types: !{{}})\n!{3} = !{{i32 2, !\"Debug Info Version\", i32 3}}\n",
                   unit, file, type, version) +
         metadata;
}

}  // namespace tr
