// :step over the dot product, and the panes a selected kernel fills, on the CPU device.
#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>

#include "core/base/context.h"
#include "core/render/render.h"
#include "core/schedule/schedule.h"
#include "core/tensor/tensor.h"
#include "core/realize/run_history.h"
#include "viz/timings.h"
#include "viz/tui/links.h"
#include "viz/tui/pane_content.h"
#include "viz/tui/step.h"

namespace tr::tui {
namespace {

Tensor ints(std::vector<int64_t> v) {
  HostData d(DType::Int32, static_cast<int64_t>(v.size()));
  for (size_t i = 0; i < v.size(); i++) d.set(static_cast<int64_t>(i), v[i]);
  return Tensor::from_host(d, {static_cast<int64_t>(v.size())});
}

std::string joined(const PaneText& p) {
  std::string out;
  for (const std::string& l : p.lines) out += l + "\n";
  return out;
}

int tab_of(const std::string& backend) {
  const auto& b = backends();
  return static_cast<int>(std::find(b.begin(), b.end(), backend) - b.begin());
}

class TuiStep : public ::testing::Test {
 protected:
  void SetUp() override { settings().noopt = true; }  // the plain loop nest: the source has its loop
  void TearDown() override { settings().noopt = false; }
};

TEST_F(TuiStep, WalksTheDotProductStageByStage) {
  const Tensor dot = ints({1, 2}).mul(ints({3, 4})).sum();
  StepWalk walk("(a*b).sum()", dot.node());
  ASSERT_EQ(walk.count(), 7) << "graph, schedule, the AST, opts, UOps and source of r_2, run";
  EXPECT_EQ(walk.stops(), stage_walk(create_schedule({base_of(dot.node())}))) << "the stage model's walk, as :step's";

  EXPECT_EQ(walk.pane(), PaneId::Ast);
  EXPECT_EQ(walk.content(PaneId::Ast, 0, 60)->title, "Graph of (a*b).sum()");
  EXPECT_NE(walk.explanation().find("nothing has run"), std::string::npos);
  EXPECT_FALSE(walk.back());

  ASSERT_TRUE(walk.forward());
  EXPECT_EQ(walk.pane(), PaneId::Kernels);
  const std::string schedule = joined(*walk.content(PaneId::Kernels, 0, 200));
  EXPECT_NE(schedule.find("why:"), std::string::npos) << schedule;
  EXPECT_NE(walk.explanation().find("1 kernel and 2 copies"), std::string::npos) << walk.explanation();

  ASSERT_TRUE(walk.forward());
  ASSERT_NE(walk.kernel(), nullptr);
  EXPECT_EQ(walk.kernel()->name, "r_2");
  const PaneText kernels = *walk.content(PaneId::Kernels, 0, 200);
  ASSERT_GE(kernels.mark_begin, 0);
  EXPECT_NE(kernels.lines[kernels.mark_begin].find("r_2"), std::string::npos) << "the stage's kernel is marked";
  EXPECT_NE(joined(*walk.content(PaneId::Ast, 0, 60)).find("STORE"), std::string::npos);
  EXPECT_NE(joined(*walk.content(PaneId::Uops, 0, 60)).find("come after"), std::string::npos)
      << "not shown before its stage";

  ASSERT_TRUE(walk.forward());
  EXPECT_EQ(walk.stage().stage, Stage::Opts);
  const PaneText opts = *walk.content(PaneId::Ast, 0, 60);
  EXPECT_EQ(opts.lines[opts.mark_begin].rfind("full shape", 0), 0u) << joined(opts);
  EXPECT_NE(walk.explanation().find("NOOPT"), std::string::npos) << walk.explanation();

  ASSERT_TRUE(walk.forward());
  EXPECT_EQ(walk.pane(), PaneId::Uops);
  const std::string uops = joined(*walk.content(PaneId::Uops, 0, 60));
  EXPECT_NE(walk.explanation().find(fmt::format("each of its {} lowering pass", lowering_passes(*walk.kernel()).size())),
            std::string::npos) << walk.explanation();
  EXPECT_EQ(uops.rfind(print_uops(walk.kernel()->program->uops), 0), 0u) << "the final listing first\n" << uops;
  const std::vector<PassSnapshot> passes = lowering_passes(*walk.kernel());
  size_t at = 0;
  for (size_t i = 0; i < passes.size(); i++) {
    const std::string heading = pass_heading(passes, i);
    const size_t next = uops.find(heading.substr(0, heading.size() - 1), at);
    ASSERT_NE(next, std::string::npos) << heading << " after " << at << " in\n" << uops;
    at = next;
  }

  ASSERT_TRUE(walk.forward());
  EXPECT_EQ(walk.pane(), PaneId::Source);
  EXPECT_NE(joined(*walk.content(PaneId::Source, tab_of("c"), 60)).find("for (int ridx0 = 0; ridx0 < 2; ridx0++)"),
            std::string::npos);
  EXPECT_EQ(walk.content(PaneId::Repl, 0, 60), std::nullopt) << "the REPL pane keeps the session";

  ASSERT_TRUE(walk.forward());
  EXPECT_EQ(walk.pane(), PaneId::Timings);
  EXPECT_EQ(kernel_runs(walk.runs()).size(), 1u);
  EXPECT_EQ(walk.content(PaneId::Kernels, 0, 60), std::nullopt) << "after the run the panes show the run";
  EXPECT_NE(walk.explanation().find("ran: 1 kernel and 2 copies"), std::string::npos) << walk.explanation();
  // the time said is the one Timings totals (its total line), the scheduling apart
  const std::string total = timings_table(walk.runs());
  const std::string ms = fmt::format("{:.3f} ms", RunTotals::of(walk.runs()).seconds * 1e3);
  EXPECT_NE(total.find(ms + "\n"), std::string::npos) << total;
  EXPECT_NE(walk.explanation().find("in " + ms + " (scheduling"), std::string::npos) << walk.explanation();
  EXPECT_TRUE(dot.realized());
  EXPECT_FALSE(walk.forward());
}

TEST_F(TuiStep, ARealizedTensorHasNothingToRun) {
  Tensor x = ints({5, 6});
  x.realize();
  StepWalk walk("x", x.node());
  EXPECT_EQ(walk.count(), 2);
  ASSERT_TRUE(walk.forward());
  EXPECT_NE(walk.explanation().find("realized already"), std::string::npos);
  EXPECT_FALSE(walk.forward());
}

TEST_F(TuiStep, PanesOfASelectedKernel) {
  Tensor dot = ints({1, 2}).mul(ints({3, 4})).sum();
  dot.realize();
  const std::vector<RunRecord> runs = last_realization().runs;
  ASSERT_EQ(kernel_runs(runs).size(), 1u);
  const KernelRecord& k = runs[kernel_runs(runs)[0]].kernel;

  const int kk = kernel_runs(runs)[0];
  const std::vector<TuiItem> items = items_of(runs);
  const PaneText list = kernels_pane(items, kk, item_order(items, false), "");
  EXPECT_EQ(list.lines[list.mark_begin].rfind(fmt::format("{:>2} r_2 ", kk), 0), 0u) << joined(list);
  EXPECT_NE(list.lines[0].find("GFLOPS"), std::string::npos);

  const PaneText ast = ast_pane(k);
  EXPECT_NE(joined(ast).find("ShapeTracker views:"), std::string::npos);
  EXPECT_NE(joined(ast).find("LOAD idx=2"), std::string::npos) << joined(ast);

  const PaneText src = source_pane(k, tab_of("opencl"));
  std::vector<std::string> tabs = backends();
  tabs.push_back("asm");
  EXPECT_EQ(src.tabs, tabs) << "a tab per backend, then the machine code's";
  EXPECT_NE(joined(src).find("__kernel void r_2"), std::string::npos) << joined(src);
  // the Asm tab: the code the CPU ran, or another backend's that :asm K BACKEND named
  const PaneText ran = source_pane(k, asm_tab());
  EXPECT_EQ(ran.title, "Asm · r_2 · c");
  EXPECT_NE(joined(ran).find("\nr_2:\n"), std::string::npos) << joined(ran);
  const PaneText opencl = source_pane(k, asm_tab(), "opencl");
  EXPECT_EQ(opencl.title, "Asm · r_2 · opencl");
  EXPECT_NE(joined(opencl).find("no machine code: the OpenCL driver"), std::string::npos) << joined(opencl);

  // linked: the store's UOp row, its C line and the AST's STORE row (row 0) name each other
  const UOpProgram& p = *k.program;
  const TabSource c = tab_source(k, tab_of("c"));
  ASSERT_TRUE(c.error.empty() && c.lines.own);
  const auto store = std::find_if(p.uops.begin(), p.uops.end(), [](const UOp& u) { return u.kind == UOpKind::Store; });
  const int store_row = static_cast<int>(store - p.uops.begin());
  const Links from_uop = links_of(PaneId::Uops, store_row, p, &c.lines.source);
  EXPECT_EQ(from_uop.uops, std::vector<int>{store_row});
  EXPECT_EQ(from_uop.ast, std::vector<int>{0});
  ASSERT_EQ(from_uop.source.size(), 1u);
  const PaneText c_pane = source_pane(k, tab_of("c"), c);
  EXPECT_NE(c_pane.lines[static_cast<size_t>(from_uop.source[0])].find("data0["), std::string::npos) << joined(c_pane);
  const Links from_line = links_of(PaneId::Source, from_uop.source[0], p, &c.lines.source);
  EXPECT_TRUE(std::find(from_line.uops.begin(), from_line.uops.end(), store_row) != from_line.uops.end());
  EXPECT_TRUE(std::find(from_line.ast.begin(), from_line.ast.end(), 0) != from_line.ast.end());
  // the AST's SUM row (row 1): its accumulator and the loop's add, and their lines
  ASSERT_NE(ast.lines[1].find("SUM"), std::string::npos) << joined(ast);
  const Links from_sum = links_of(PaneId::Ast, 1, p, &c.lines.source);
  ASSERT_FALSE(from_sum.uops.empty());
  EXPECT_TRUE(std::any_of(from_sum.uops.begin(), from_sum.uops.end(), [&](int u) { return p.uops[static_cast<size_t>(u)].kind == UOpKind::DefineAcc; }));
  EXPECT_TRUE(std::any_of(from_sum.source.begin(), from_sum.source.end(),
                          [&](int l) { return c_pane.lines[static_cast<size_t>(l)].find("acc0 = ") != std::string::npos; }))
      << joined(c_pane);
  EXPECT_TRUE(links_of(PaneId::Source, from_uop.source[0], p, nullptr).uops.empty()) << "a source lowered again links nothing";

  const PaneText timings = timings_pane(runs, kernel_runs(runs)[0], 10, "total: 1 kernel", "");
  EXPECT_NE(timings.lines[timings.mark_begin].find("r_2"), std::string::npos) << joined(timings);
  EXPECT_EQ(timings.lines.back(), "session total: 1 kernel");
  EXPECT_NE(joined(timings).find("█"), std::string::npos) << "a bar per run";
}

}  // namespace
}  // namespace tr::tui
