#include "viz/tui/step.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/base/context.h"
#include "core/realize/run_history.h"
#include "core/runtime/device.h"
#include "viz/tui/pane_content.h"
#include "viz/tui/text.h"

namespace tr::tui {
namespace {

constexpr int kItemIndent = 6;  // schedule_text's "why:" lines

std::string plural(size_t n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

}  // namespace

StepWalk::StepWalk(std::string expr, LazyRef x) : expr_(std::move(expr)), x_(std::move(x)) {
  schedule_ = create_schedule({base_of(x_)});
  for (size_t i = 0; i < schedule_.size(); i++) {
    const ScheduleItem& item = schedule_[i];
    if (item.kind == ScheduleItem::Kind::Copy) {
      lowered_.emplace_back();
      backends_.emplace_back();
      continue;
    }
    lowered_.emplace_back(lower(item, item.outputs[0]->device));
    backends_.push_back(device(lowered_.back()->device).backend());
    kernel_items_.push_back(static_cast<int>(i));
  }
  stages_ = stage_walk(schedule_);
}

bool StepWalk::forward() {
  if (at_ + 1 >= stages_.size()) return false;
  at_++;
  if (stage().stage == Stage::Run && !ran_) run();
  return true;
}

bool StepWalk::back() {
  if (at_ == 0) return false;
  at_--;
  return true;
}

void StepWalk::run() {
  ran_ = true;
  try {
    const Realization r = realize({base_of(x_)});
    runs_ = r.runs;
    schedule_ms_ = r.schedule_ms;
  } catch (const std::exception& e) {
    run_error_ = e.what();
  }
}

const KernelRecord* StepWalk::kernel() const {
  const int item = stage().item;
  return item >= 0 && lowered_[item] ? &*lowered_[item] : nullptr;
}

const std::string& StepWalk::backend() const {
  static const std::string none;
  return stage().item >= 0 ? backends_[stage().item] : none;
}

PaneId stage_pane(Stage s) {
  switch (s) {
    case Stage::Graph:
    case Stage::Ast:
    case Stage::Opts: return PaneId::Ast;
    case Stage::Schedule: return PaneId::Kernels;
    case Stage::Uops: return PaneId::Uops;
    case Stage::Source: return PaneId::Source;
    case Stage::Run: break;
  }
  return PaneId::Timings;
}

PaneId StepWalk::pane() const { return stage_pane(stage().stage); }

std::string StepWalk::kernel_position() const {
  const auto pos = std::find(kernel_items_.begin(), kernel_items_.end(), stage().item) - kernel_items_.begin();
  return fmt::format("kernel {} of {}, {}", pos + 1, kernel_items_.size(), kernel()->name);
}

std::string StepWalk::explanation() const {
  const std::string head = fmt::format("Step {}/{}: ", at_ + 1, stages_.size());
  const KernelRecord* k = kernel();
  switch (stage().stage) {
    case Stage::Graph:
      return head + fmt::format("the lazy graph of {}: each tensor operation recorded a node, and nothing has run "
                                "yet. Nodes marked [realized] already hold a buffer.", expr_);
    case Stage::Schedule:
      if (schedule_.empty())
        return head + fmt::format("nothing to schedule: {} is realized already, so reading it runs no kernel.", expr_);
      return head + fmt::format("the scheduler cuts the graph into {} and {}, in the order they run. Each 'why' "
                                "says why a kernel ends there instead of fusing on.",
                                plural(kernel_items_.size(), "kernel", "kernels"),
                                plural(schedule_.size() - kernel_items_.size(), "copy", "copies"));
    case Stage::Ast:
      return head + fmt::format("the AST of {}: its output's STORE, the fused ops, its inputs' LOADs, each "
                                "through a ShapeTracker view (st=). It ends here: {}.", kernel_position(), *k->reason);
    case Stage::Opts: {
      std::vector<std::string> opts;
      for (const Opt& o : k->kernel->opts) opts.push_back(o.str());
      const std::string applied = !opts.empty() ? fmt::format("applied: {}", fmt::join(opts, ", "))
                                  : settings().noopt ? "none applied, since NOOPT is on"
                                                     : "none applied: the heuristic found nothing worth splitting";
      return head + fmt::format("the opts of {}: its full shape {} splits into dims with roles (loop, thread, "
                                "upcast, unroll); {}.", k->name, shape_str(k->kernel->full_shape), applied);
    }
    case Stage::Uops:
      return head + fmt::format("lowering turns {} into {} UOps: a DEFINE_GLOBAL per buffer, loops or "
                                "launch ids for the dims, then LOADs, ALU ops and the STORE ({} FLOPs, {} bytes). "
                                "Below the listing, the UOps after each of its {}.",
                                k->name, k->program->uops.size(), k->program->flops, k->program->bytes,
                                plural(lowering_passes(*k).size(), "lowering pass", "lowering passes"));
    case Stage::Source:
      return head + fmt::format("the renderer spells the UOps of {} in {} for {}; Left/Right or 1-9 show them "
                                "in every other backend.", k->name, backend(), k->device);
    case Stage::Run:
      if (!run_error_.empty()) return head + fmt::format("running the schedule failed: {}", run_error_);
      // the time is the runs' sum, Timings' total line's measurement; scheduling is apart, as there
      return head + fmt::format("{} ran: {} and {} in {:.3f} ms (scheduling them took {:.3f} ms more). Timings "
                                "shows each one's time, GFLOPS and GB/s.", expr_,
                                plural(kernel_runs(runs_).size(), "kernel", "kernels"),
                                plural(runs_.size() - kernel_runs(runs_).size(), "copy", "copies"),
                                RunTotals::of(runs_).seconds * 1e3, schedule_ms_);
  }
  return head;
}

std::optional<PaneText> StepWalk::content(PaneId pane, int tab, int width) const {
  if (stage().stage == Stage::Run && run_error_.empty()) return std::nullopt;
  const Stage s = stage().stage;
  const KernelRecord* k = kernel();
  const bool kernel_stage = k != nullptr;
  switch (pane) {
    case PaneId::Kernels: {
      // The reasons are what this stage is about: wrapped, not cut. An item's lines are its numbered
      // line and the deeper indented ones under it.
      const std::string text = wrap_lines(schedule_text(schedule_), width, kItemIndent);
      PaneText p = pane_text(fmt::format("Schedule of {}", expr_), text, Syntax::Listing);
      const std::string number = fmt::format("{:>3} ", stage().item);
      const auto line =
          std::find_if(p.lines.begin(), p.lines.end(), [&](const std::string& l) { return l.starts_with(number); });
      if (kernel_stage && line != p.lines.end()) {
        p.mark_begin = p.anchor = static_cast<int>(line - p.lines.begin());
        p.mark_end = p.mark_begin + 1;
        const std::string deeper(kItemIndent, ' ');
        while (p.mark_end < static_cast<int>(p.lines.size()) && p.lines[p.mark_end].starts_with(deeper)) p.mark_end++;
      }
      return p;
    }
    case PaneId::Ast:
      if (kernel_stage) return ast_pane(*k, s == Stage::Opts);
      return pane_text(fmt::format("Graph of {}", expr_), graph_text(x_), Syntax::Listing);
    case PaneId::Uops:
      if (s == Stage::Uops || s == Stage::Source) return uops_pane(*k);
      return placeholder("UOps", kernel_stage ? fmt::format("the UOps of {} come after its opts", k->name)
                                              : std::string("the UOps come after the schedule and each kernel's AST"));
    case PaneId::Source:
      if (s == Stage::Source) return source_pane(*k, tab);
      return placeholder("Source", "the source comes after the UOps");
    case PaneId::Timings:
      if (s == Stage::Run) return placeholder("Timings", run_error_);
      return placeholder("Timings", "the timings come when the schedule runs, at the last step");
    case PaneId::Roofline: case PaneId::Repl: break;
  }
  return std::nullopt;
}

}  // namespace tr::tui
