// A GPU matmul's tile: 16 steps of the reduce a turn, their tiles of both operands staged in local
// memory, which the workgroup's threads copy with float4 loads (core/codegen/stage.cpp); the workgroup
// is then 32x8 threads. A reduce dim that 16 does not divide is padded to a multiple of it where that
// may be. Half that the target keeps only in its buffers is not staged (core/codegen/stage.cpp): such
// a matmul is unrolled.
#include "core/opt/apply_opt.h"
#include "core/opt/opt_table.h"
#include "core/opt/recipes/dims.h"
#include "core/opt/recipes/recipe.h"

namespace tr {
namespace {

constexpr int64_t kStagedSteps = 16;

bool half_in_buffers(const Kernel& k, const Target& t) {
  bool half = false;
  walk(k.ast, [&](const AstNode& n) { half = half || (n.op == AstOp::Load && n.dtype == DType::Float16); });
  return half && !t.half_arithmetic;
}

bool applies(const OptPlan& p, const Target& t) {
  return last_dim_with(p.kernel, DimRole::Reduce) >= 0 && p.gpu_tile_columns >= 0 && target_has(t, OptNeeds::LocalMemory) &&
         !half_in_buffers(p.kernel, t);
}

void apply(OptPlan& p, const Target& t) {
  Kernel& out = p.kernel;
  const int r = last_dim_with(out, DimRole::Reduce);
  if (!unsafe_to_pad_reduce(out)) pad_to_multiple(out, r, kStagedSteps, t);
  if (out.dims[r].size % kStagedSteps == 0 && out.dims[r].size > kStagedSteps) out = apply_opt(out, {OptOp::Stage, r, kStagedSteps}, t);
}

}  // namespace

const Recipe kGpuStaging{"GPU staging", applies, apply};

}  // namespace tr
