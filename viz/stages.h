#pragma once
// The stages a lazy tensor passes through on its way to timed kernels, and the text of each. They are
// written once, here: DEBUG, :step, :kernels, :ast, :opts, :uops, :src and the TUI's panes all show
// a stage through these functions, so a stage reads the same wherever it appears.
#include <string>
#include <string_view>
#include <vector>

#include "core/realize/realize.h"
#include "core/render/source_lines.h"

namespace tr {

enum class Stage : uint8_t { Graph, Schedule, Ast, Opts, Uops, Source, Run };

// One stop of a walk through x's stages: a stage and, for a kernel's stages, its schedule item.
struct StageStop {
  Stage stage = Stage::Graph;
  int item = -1;
  bool operator==(const StageStop&) const = default;
};

// The walk: the graph, the schedule, then each kernel's AST, opts, UOps and source in the order the
// kernels run, then the run (absent when nothing runs). Copies have no stages of their own.
std::vector<StageStop> stage_walk(const std::vector<ScheduleItem>& items);
// "the lazy graph", "kernel 2: its opts", "the run"
std::string stop_title(const StageStop& s);

// Graph: the lazy graph, shared nodes printed once.
std::string graph_text(const LazyRef& x);
// Schedule: each kernel and copy with its buffers and the reason it ends where it does.
std::string schedule_text(const std::vector<ScheduleItem>& items);
// "UPCAST(0, 4), LOCAL(1, 8)", or "none".
std::string opts_list(const Kernel& k);
// "kernel 2 r_4_4 on CPU (opts: UPCAST(0, 4))": the heading of a kernel's stage in the REPL.
std::string kernel_title(int k, const KernelRecord& r);
// Ast: the tree, then each buffer's ShapeTracker views.
std::string ast_text(const Kernel& k);
// Opts: the full shape, the dims with their roles (what :opt's AXIS counts), the opts applied.
std::string opts_text(const Kernel& k);
// Uops: the final listing and the launch dims.
std::string uops_text(const UOpProgram& p);
// Uops, pass by pass: a heading naming each lowering pass, then the listing it left.
std::string passes_text(const std::vector<PassSnapshot>& passes);
// "── after pass 2 of 5, expand: 31 uops ──", with ", unchanged" where the pass rewrote nothing
std::string pass_heading(const std::vector<PassSnapshot>& passes, size_t pass);
// The backends whose source is shown: the `render` list (the :render setting), else the device's own.
std::vector<std::string> shown_backends(const KernelRecord& r, const std::vector<std::string>& render);
// Source: one backend's rendering, ending with a newline.
std::string backend_source(const KernelRecord& r, std::string_view backend);
// The same with the UOps of `program` that each line spells. `own`: program is the kernel's own
// (r.program, what :uops lists); false where the backend lowered the kernel again (BackendLowering).
struct SourceLines {
  RenderedSource source;
  UOpProgram program;
  bool own = true;
};
SourceLines backend_source_lines(const KernelRecord& r, std::string_view backend);
// Each line of a source behind a margin of the UOps it spells: " 4-6,9 │ acc0 = ...".
std::string uop_margin_text(const RenderedSource& s);
// Source: "// opencl\n<source>" for each backend.
std::string source_text(const KernelRecord& r, const std::vector<std::string>& backends);
// Run: each kernel's and copy's time, GFLOPS and GB/s.
std::string run_text(const std::vector<RunRecord>& runs);
// Run, of one kernel: "tm 5.62us  0.00 GFLOPS  0.01 GB/s  (4 FLOPs, 20 bytes)".
std::string kernel_run_text(const KernelRecord& r);

}  // namespace tr
