#include "viz/tui/links.h"

#include <algorithm>

namespace tr::tui {
namespace {

void add(std::vector<int>& to, int x) {
  if (std::find(to.begin(), to.end(), x) == to.end()) to.push_back(x);
}

}  // namespace

Links links_of(PaneId from, int line, const UOpProgram& p, const RenderedSource* source) {
  Links out;
  const int n = static_cast<int>(p.uops.size());
  const bool rows_known = p.ast_rows.size() == p.uops.size();
  switch (from) {
    case PaneId::Uops:
      if (line >= 0 && line < n) out.uops = {line};
      break;
    case PaneId::Source:
      if (source && line >= 0 && static_cast<size_t>(line) < source->line_uops.size()) out.uops = source->line_uops[line];
      break;
    case PaneId::Ast:
      for (int u = 0; rows_known && u < n; u++)
        if (p.ast_rows[static_cast<size_t>(u)] == line) out.uops.push_back(u);
      break;
    case PaneId::Kernels: case PaneId::Timings: case PaneId::Roofline: case PaneId::Repl: break;
  }
  for (const int u : out.uops) {
    if (source)
      for (const int l : source->lines_of(u)) add(out.source, l);
    if (rows_known && p.ast_rows[static_cast<size_t>(u)] >= 0) add(out.ast, p.ast_rows[static_cast<size_t>(u)]);
  }
  std::sort(out.source.begin(), out.source.end());
  std::sort(out.ast.begin(), out.ast.end());
  return out;
}

}  // namespace tr::tui
