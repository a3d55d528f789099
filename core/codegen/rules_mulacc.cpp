// A rule a CPU with fused multiply-add adds: a reduce that sums products (a matmul, a dot, a
// convolution) accumulates with MULACC, one instruction and one rounding per step. The CPU's C is
// compiled with -ffp-contract=off, so no other a*b+c fuses: only the accumulator's chain changes,
// and it changes alike under every opt (an unroll or upcast keeps each output's order of steps).
#include "core/codegen/rules.h"

namespace tr {
namespace {

// The running value of a sum: its accumulator, or an earlier step of its chain.
bool accumulating(const UGraph& g, int n) {
  const UOp& u = g[n];
  return u.kind == UOpKind::DefineAcc || (u.kind == UOpKind::Alu && u.alu == Op::MulAcc);
}

}  // namespace

const std::vector<Rule>& mulacc_rules() {
  static const std::vector<Rule> rules{
      {"mulacc", "acc + a*b = mulacc(a, b, acc), rounded once where the target fuses it",
       Pat{.is = Pat::Is::Alu, .alu = Op::Add, .commutative = true,
           .srcs = {Pat{.slot = 0}, Pat{.is = Pat::Is::Alu, .alu = Op::Mul, .commutative = true,
                                        .srcs = {Pat{.slot = 1}, Pat{.slot = 2}}}}},
       [](UGraph& g, int n, const Captures& c) -> std::optional<int> {
         const DType t = g[n].dtype;
         if ((t != DType::Float32 && t != DType::Float64) || !accumulating(g, c.at(0))) return std::nullopt;
         return g.alu(Op::MulAcc, t, {c.at(1), c.at(2), c.at(0)}, g[n].vec);
       }},
  };
  return rules;
}

}  // namespace tr
