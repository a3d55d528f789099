#pragma once
// A rendered source with, beside its text, which UOps each of its lines spells: what links a UOp to the
// source lines it made and a line back to its UOps (the TUI's linked panes, `:src K BACKEND uops`).
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/uops.h"

namespace tr {

struct RenderedSource {
  std::string text;
  // Per line of text: the indices into the program's uops that the line spells, ascending. A line
  // spells the UOp rendered there and the UOps whose spelling it inlines (a constant, a value read once);
  // what no UOp made (preludes, the kernel's closing brace) spells none.
  std::vector<std::vector<int>> line_uops;

  // Appends text, each of its lines spelling `uops`; a line that the text leaves open continues with
  // the next append, and then spells the UOps of both.
  void append(std::string_view more, const std::vector<int>& uops = {});
  void append(const RenderedSource& more);
  // The lines (0-based) that spell UOp `uop`, ascending.
  std::vector<int> lines_of(int uop) const;

 private:
  bool open_ = false;  // the last line has no newline yet
};

// Which UOps each value's spelling holds, for a renderer that inlines some values into their readers
// (a constant's literal, an expression read once) and names the others.
class InlinedUOps {
 public:
  explicit InlinedUOps(const std::vector<UOp>& uops) : uops_(uops), held_(uops.size()) {}
  // UOp i's spelling is an expression that its readers repeat.
  void inline_value(int i) { held_[static_cast<size_t>(i)] = spelled_by(i); }
  // What a line that renders UOp i spells: i and the inlined UOps under its sources, ascending.
  std::vector<int> spelled_by(int i) const;

 private:
  const std::vector<UOp>& uops_;
  std::vector<std::vector<int>> held_;  // per UOp inlined: the UOps its expression spells; empty for a name
};

}  // namespace tr
