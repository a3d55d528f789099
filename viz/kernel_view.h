#pragma once
// What `:ast K`, `:uops K`, `:src K [BACKEND]`, `:asm K [BACKEND]` and `:diff K` ask a viewer with panes (the TUI) to show:
// kernel K of the selected schedule at one stage, instead of printing that stage as text.
#include <string>

#include "viz/stages.h"

namespace tr {

struct KernelView {
  Stage stage = Stage::Ast;  // Ast, Uops or Source
  int kernel = 0;            // K, as :kernels numbers the schedule's items
  std::string backend{};     // Source: the backend asked for; "" keeps the one shown
  bool machine_code = false;  // :asm: the Source pane's Asm tab, with the backend's code ("": the device's)
  std::string diff{};        // :diff: a unified diff of two versions, shown in the Source pane in the source's place
};

}  // namespace tr
