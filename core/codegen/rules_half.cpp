// Rules a target adds to the shared ones: where half exists only in memory (OpenCL without
// cl_khr_fp16), every op on half values runs in float and its result is rounded back to half, so each
// step rounds as half arithmetic would. The renderer then meets half only in loads, stores and casts.
#include "core/codegen/rules.h"

namespace tr {
namespace {

bool touches_half(const UGraph& g, const UOp& u) {
  if (u.dtype == DType::Float16) return true;
  for (int s : u.srcs)
    if (g[s].dtype == DType::Float16) return true;
  return false;
}

}  // namespace

const std::vector<Rule>& half_in_float_rules() {
  static const std::vector<Rule> rules{
      {"half in float", "op(x, y) in half = half(op(float(x), float(y))): float holds every half exactly",
       Pat{.is = Pat::Is::AnyAlu},
       [](UGraph& g, int n, const Captures&) -> std::optional<int> {
         const UOp u = g[n];
         if (!touches_half(g, u)) return std::nullopt;
         std::vector<int> srcs;
         for (int s : u.srcs) srcs.push_back(g[s].dtype == DType::Float16 ? g.cast(DType::Float32, s, g[s].vec) : s);
         const DType t = u.dtype == DType::Float16 ? DType::Float32 : u.dtype;
         const int op = g.alu(u.alu, t, std::move(srcs), u.vec);
         return u.dtype == DType::Float16 ? g.cast(DType::Float16, op, u.vec) : op;
       }},
  };
  return rules;
}

}  // namespace tr
