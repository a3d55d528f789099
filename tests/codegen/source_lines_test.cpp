// The line map beside each rendered source (which UOps each line spells) and the AST row each UOp was
// lowered from, for the C-style, LLVM IR and PTX renderers, on CPU and GPU lowerings.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/codegen/codegen.h"
#include "core/kernel/ast.h"
#include "core/kernel/kernel.h"
#include "core/opt/heuristic.h"
#include "core/render/render.h"
#include "core/schedule/schedule.h"
#include "tests/tensor_testing.h"
#include "viz/stages.h"

namespace tr {
namespace {

using namespace tr::testing;

// (a * b).sum(1) + c: loads, an ALU, a reduce, an ALU after it, a store.
Kernel reduce_kernel() {
  std::mt19937_64 rng(5);
  Tensor a = tensor(random_values(rng, 8 * 16, DType::Float32, -1, 1), {8, 16});
  Tensor b = tensor(random_values(rng, 8 * 16, DType::Float32, -1, 1), {8, 16});
  Tensor c = tensor(random_values(rng, 8, DType::Float32, -1, 1), {8});
  a.realize();
  b.realize();
  c.realize();
  const std::vector<ScheduleItem> items = create_schedule({base_of(a.mul(b).sum(std::vector<int>{1}).add(c).node())});
  EXPECT_EQ(items.size(), 1u);
  return Kernel::from_ast(items.back().ast);
}

std::vector<std::string> lines_of_text(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    out.push_back(text.substr(at, end - at));
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return out;
}

// The lowerings to check: the CPU's with its default opts, and a nominal GPU's with its own.
std::vector<std::pair<std::string, UOpProgram>> lowerings(const Kernel& k) {
  const Target cpu = cpu_target(Isa::Avx2, 1, {});
  const Target gpu = backend_info("cuda").nominal;
  return {{"cpu", codegen(default_opts(k, cpu), cpu, "k")}, {"gpu", codegen(default_opts(k, gpu), gpu, "k")}};
}

TEST(SourceLines, EachLineOfEveryBackendSpellsTheUopsRenderedThere) {
  const Kernel k = reduce_kernel();
  for (const auto& [where, p] : lowerings(k)) {
    const bool gpu = where == "gpu";
    for (const std::string backend : {"c", "llvm", "opencl", "cuda", "metal", "ptx", "hip", "wgsl"}) {
      if (backend_info(backend).gpu != gpu) continue;
      SCOPED_TRACE(backend + " on " + where);
      const RenderedSource s = render_lines(backend, p);
      ASSERT_EQ(s.text, render(backend, p));
      const std::vector<std::string> lines = lines_of_text(s.text);
      ASSERT_EQ(s.line_uops.size(), lines.size());
      for (const std::vector<int>& l : s.line_uops) {
        EXPECT_TRUE(std::is_sorted(l.begin(), l.end()));
        for (const int u : l) EXPECT_LT(static_cast<size_t>(u), p.uops.size());
      }
      for (size_t i = 0; i < p.uops.size(); i++) {
        const UOp& u = p.uops[i];
        const std::vector<int> at = s.lines_of(static_cast<int>(i));
        const auto any_line = [&](auto pred) { return std::any_of(at.begin(), at.end(), [&](int l) { return pred(lines[l]); }); };
        const auto has = [](std::string_view word) { return [word](const std::string& l) { return l.find(word) != std::string::npos; }; };
        switch (u.kind) {
          // a buffer is a parameter named where the kernel's head takes it (WGSL binds it at module scope)
          case UOpKind::DefineGlobal:
            if (backend != "wgsl") {
              EXPECT_TRUE(any_line(has(uop_name(u)))) << i;
            }
            break;
          // a statement's line writes memory, and spells its index's arithmetic with it
          case UOpKind::Store: {
            EXPECT_TRUE(any_line([&](const std::string& l) {
              return l.find(" = ") != std::string::npos || l.find("store ") != std::string::npos || l.find("\tst.") != std::string::npos;
            })) << i;
            EXPECT_FALSE(at.empty());
            break;
          }
          case UOpKind::Load: EXPECT_FALSE(at.empty()) << i; break;
          case UOpKind::Range:
            if (backend_info(backend).syntax == SourceSyntax::C && backend != "ptx") {
              EXPECT_TRUE(any_line(has("for ("))) << i;
            }
            EXPECT_FALSE(at.empty()) << i;
            break;
          case UOpKind::DefineAcc: case UOpKind::EndRange: EXPECT_FALSE(at.empty()) << i; break;
          default: break;
        }
      }
    }
  }
}

// A value read once is inlined into its reader's line (C), so that line spells both; a named value
// gets a line of its own.
TEST(SourceLines, AnInlinedValueIsSpelledOnItsReadersLine) {
  const Kernel k = reduce_kernel();
  const Target cpu = cpu_target(Isa::Avx2, 1, {});
  const UOpProgram p = codegen(k, cpu, "k");  // no opts: scalar loops
  const RenderedSource s = render_lines("c", p);
  const auto store = std::find_if(p.uops.begin(), p.uops.end(), [](const UOp& u) { return u.kind == UOpKind::Store; });
  ASSERT_NE(store, p.uops.end());
  const int value = store->srcs[2];  // the add of c after the reduce: read once, inlined into the store
  ASSERT_EQ(p.uops[static_cast<size_t>(value)].kind, UOpKind::Alu);
  const std::vector<int> store_lines = s.lines_of(static_cast<int>(store - p.uops.begin()));
  ASSERT_EQ(store_lines.size(), 1u);
  EXPECT_EQ(s.lines_of(value), store_lines);
  const std::vector<std::string> lines = lines_of_text(s.text);
  EXPECT_NE(lines[static_cast<size_t>(store_lines[0])].find("data0["), std::string::npos);
}

// Lowering knows which AST node each load, ALU, reduce and store came from, through every pass (the
// CPU's upcasts and unrolls, the GPU's launch ids).
TEST(AstRows, EachUopNamesTheAstRowItWasLoweredFrom) {
  const Kernel k = reduce_kernel();
  const std::unordered_map<const AstNode*, int> rows = ast_rows(k.ast);
  std::vector<const AstNode*> node_at(rows.size() + 8, nullptr);
  for (const auto& [n, r] : rows) node_at[static_cast<size_t>(r)] = n;
  for (const auto& [where, p] : lowerings(k)) {
    SCOPED_TRACE(where);
    ASSERT_EQ(p.ast_rows.size(), p.uops.size());
    int loads = 0, stores = 0, accs = 0;
    for (size_t i = 0; i < p.uops.size(); i++) {
      const UOp& u = p.uops[i];
      const int row = p.ast_rows[i];
      const AstNode* n = row >= 0 ? node_at[static_cast<size_t>(row)] : nullptr;
      if (u.kind == UOpKind::Load && p.uops[static_cast<size_t>(u.srcs[0])].kind == UOpKind::DefineGlobal) {
        ASSERT_NE(n, nullptr) << i;
        EXPECT_EQ(n->op, AstOp::Load) << i;
        EXPECT_EQ(n->idx, p.uops[static_cast<size_t>(u.srcs[0])].buffer) << i;
        loads++;
      }
      if (u.kind == UOpKind::Store && p.uops[static_cast<size_t>(u.srcs[0])].kind == UOpKind::DefineGlobal) {
        EXPECT_EQ(row, 0) << i;
        stores++;
      }
      if (u.kind == UOpKind::DefineAcc) {
        ASSERT_NE(n, nullptr) << i;
        EXPECT_EQ(n->op, AstOp::Reduce) << i;
        accs++;
      }
    }
    EXPECT_GE(loads, 3);
    EXPECT_GE(stores, 1);
    EXPECT_GE(accs, 1);
  }
}

// :src K BACKEND uops: each line behind the numbers of the UOps it spells.
TEST(SourceLines, TheMarginNumbersEachLinesUops) {
  RenderedSource s;
  s.append("head\n");
  s.append("a = 1;\n", {3, 4, 5, 9});
  s.append("b", {7});
  s.append(" = 2;\n", {2});
  EXPECT_EQ(uop_margin_text(s),
            " uops │\n"
            "      │ head\n"
            "3-5,9 │ a = 1;\n"
            "  2,7 │ b = 2;\n");
}

}  // namespace
}  // namespace tr
