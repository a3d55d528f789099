#include "viz/peak_benchmarks.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/kernel/ast.h"
#include "core/opt/apply_opt.h"
#include "core/opt/heuristic.h"
#include "core/shape/shape_tracker.h"

namespace tr {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kGpuStreamBytes = 512 * kMiB;
constexpr int64_t kCpuStreamLeast = 64 * kMiB, kCpuStreamMost = 1024 * kMiB;
constexpr int kCacheMultiple = 4;
// The compute benchmark's reduce: steps per accumulator, and how many one loop turn takes.
constexpr int64_t kCpuSteps = int64_t{1} << 16, kGpuSteps = int64_t{1} << 13;
constexpr int64_t kStepsATurn = 4;
// A GPU's workgroups, and the threads per multiprocessor that fill it (2048 on NVIDIA's since Volta).
constexpr int64_t kGpuWorkgroup = 128, kGpuThreadsPerCore = 2048;

int64_t power_of_two_at_least(int64_t n) {
  int64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

std::string mib(int64_t bytes) { return fmt::format("{} MiB", bytes / kMiB); }

int dim_with(const Kernel& k, DimRole role) {
  for (size_t i = 0; i < k.dims.size(); i++)
    if (k.dims[i].role == role) return static_cast<int>(i);
  return -1;
}

Kernel with(const Kernel& k, OptOp op, DimRole role, int64_t amount, const Target& t) {
  return apply_opt(k, {op, dim_with(k, role), amount}, t);
}

AstRef plus_one(int64_t n) {
  const ShapeTracker st = ShapeTracker::contiguous({n});
  return ast_store(0, st, ast_alu(Op::Add, DType::Float32,
                                  {ast_load(1, DType::Float32, st), ast_const(1.0, DType::Float32, st)}));
}

}  // namespace

// viz/NOTES.md: 12 fill a CPU's two FMA pipes of 4 cycles' latency with room to spare, with AVX2's 16
// registers too (its a[i] then come from the L1 cache); on a GPU they share one load of b[r] among more
// multiply-adds, and the warps hide the latency.
int fma_chains(const Target& t) { return t.gpu ? 16 : 12; }

PeakBenchmark bandwidth_benchmark(const Target& t) {
  const int64_t llc = t.caches.last_level();
  const int64_t bytes = t.gpu ? kGpuStreamBytes
                              : std::clamp(power_of_two_at_least(kCacheMultiple * llc), kCpuStreamLeast, kCpuStreamMost);
  const int64_t n = bytes / itemsize(DType::Float32);
  const std::string why = t.gpu        ? "far past a GPU's caches, which its target does not give"
                          : llc > 0    ? fmt::format("{} x the {} last-level cache", kCacheMultiple, mib(llc))
                                       : "the CPU's caches are not known";
  return {default_opts(Kernel::from_ast(plus_one(n)), t),
          {{DType::Float32, n}, {DType::Float32, n}},
          fmt::format("x + 1 in float32 over 2 x {} ({}), the default opts", mib(bytes), why)};
}

PeakBenchmark compute_benchmark(const Target& t, DType dtype) {
  const int chains = fma_chains(t);
  const int lanes = t.gpu ? 1 : t.float_lanes();
  const int64_t threads = t.gpu ? std::max(1, t.cores) * kGpuThreadsPerCore : t.cores;
  const int64_t m = threads * lanes * chains, r = t.gpu ? kGpuSteps : kCpuSteps;
  const ShapeTracker out = ShapeTracker::contiguous({m, 1});
  const AstRef a = ast_load(1, dtype, out.expand({m, r}));
  const AstRef b = ast_load(2, dtype, ShapeTracker::contiguous({1, r}).expand({m, r}));
  const AstRef sum = ast_reduce(Op::Sum, dtype, ast_alu(Op::Mul, dtype, {a, b}), {1});
  Kernel k = Kernel::from_ast(ast_store(0, out, sum));
  if (t.gpu) k = with(k, OptOp::Local, DimRole::Global, std::min<int64_t>(kGpuWorkgroup, t.max_local), t);
  if (lanes > 1) k = with(k, OptOp::Upcast, DimRole::Global, lanes, t);
  k = with(k, OptOp::Upcast, DimRole::Global, chains, t);
  k = with(k, OptOp::Unroll, DimRole::Reduce, kStepsATurn, t);
  if (!t.gpu && t.cores > 1) k = with(k, OptOp::Thread, DimRole::Global, t.cores, t);
  const std::string split = t.gpu ? fmt::format("{} threads in workgroups of {}", threads, std::min<int64_t>(kGpuWorkgroup, t.max_local))
                                  : fmt::format("{} core{}", t.cores, t.cores == 1 ? "" : "s");
  const std::string each = lanes > 1 ? fmt::format("{} chains of {}-lane vectors", chains, lanes) : fmt::format("{} chains", chains);
  return {std::move(k),
          {{dtype, m}, {dtype, m}, {dtype, r}},
          fmt::format("a[i] * b[r] summed over {} steps in {}: {} a thread, over {}", r, name(dtype), each, split)};
}

PeakBenchmark launch_benchmark() {
  return {Kernel::from_ast(plus_one(1)), {{DType::Float32, 1}, {DType::Float32, 1}}, "x + 1 over one element"};
}

}  // namespace tr
