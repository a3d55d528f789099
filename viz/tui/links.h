#pragma once
// The linked panes: a line selected in the UOps, Source or AST pane names UOps of the kernel, and the
// other two panes show what those UOps are there: the source lines they made, the AST rows they came from.
#include <vector>

#include "core/ir/uops.h"
#include "core/render/source_lines.h"
#include "viz/tui/layout.h"

namespace tr::tui {

// Lines of each pane, ascending: rows of the UOps pane's final listing (a row is a UOp's number), lines
// of the Source pane's text, rows of the AST pane's tree.
struct Links {
  std::vector<int> uops, source, ast;
};

// What line `line` of pane `from` (Uops, Source or Ast) links to. `source` is the Source pane's text
// with its lines' UOps, null where its UOps are not p's (the kernel lowered again for the tab's backend):
// then nothing links to or from it.
Links links_of(PaneId from, int line, const UOpProgram& p, const RenderedSource* source);

}  // namespace tr::tui
