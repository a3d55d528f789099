#pragma once
// `:step x`: the stages from a lazy graph to timed kernels, one keypress each — the graph, the
// schedule with the reason for every boundary, then per kernel its AST, opts, UOps and source, and
// finally the run: the stops of viz/stages' walk. Each stop names the pane that shows it and explains
// itself in a sentence or two.
#include <optional>
#include <string>
#include <vector>

#include "core/realize/realize.h"
#include "viz/stages.h"
#include "viz/tui/layout.h"
#include "viz/tui/pane_text.h"

namespace tr::tui {

// The pane that shows a stage.
PaneId stage_pane(Stage s);

class StepWalk {
 public:
  // Schedules x and lowers each kernel as it would run, running nothing; throws tr::Error when the
  // engine cannot (a device that does not open, a kernel that does not lower).
  StepWalk(std::string expr, LazyRef x);

  const StageStop& stage() const { return stages_[at_]; }
  const std::vector<StageStop>& stops() const { return stages_; }
  int count() const { return static_cast<int>(stages_.size()); }
  // Moves one stage; false at either end. Reaching the last stage runs the schedule (once).
  bool forward();
  bool back();

  PaneId pane() const;  // the pane the current stage shows in
  std::string explanation() const;
  // What a pane `width` columns wide shows at this stage; nullopt once the walk has run, when the
  // panes show the run.
  std::optional<PaneText> content(PaneId pane, int tab, int width) const;
  // The records of the run (after the last stage), for the Kernels and Timings panes.
  const std::vector<RunRecord>& runs() const { return runs_; }
  const std::string& expr() const { return expr_; }
  const KernelRecord* kernel() const;  // the current kernel stage's kernel, lowered as it will run
  const std::string& backend() const;  // the renderer of that kernel's device ("" outside a kernel's stages)

 private:
  void run();
  std::string kernel_position() const;  // "kernel 1 of 2, r_2"

  std::string expr_;
  LazyRef x_;
  std::vector<ScheduleItem> schedule_;
  std::vector<std::optional<KernelRecord>> lowered_;  // per schedule item; none for copies
  std::vector<std::string> backends_;                  // per schedule item; "" for copies
  std::vector<int> kernel_items_;
  std::vector<StageStop> stages_;
  size_t at_ = 0;
  bool ran_ = false;
  std::string run_error_;
  std::vector<RunRecord> runs_;
  double schedule_ms_ = 0;
};

}  // namespace tr::tui
