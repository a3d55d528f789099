#pragma once
// The short kernels that measure a device's peaks for the roofline (viz/peaks.h runs them): each a
// kernel AST with the opts it runs with, the buffers it runs on, and what it is in words. They read
// only the Target, never the machine at hand; viz/NOTES.md has what they reach and why their numbers.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/dtype.h"
#include "core/ir/target.h"
#include "core/kernel/kernel.h"

namespace tr {

struct PeakBenchmark {
  Kernel kernel;                                   // with its opts applied
  std::vector<std::pair<DType, int64_t>> buffers;  // dtype and elements of each argument, output first
  std::string what;                                // "x + 1 over 2 x 128 MiB (4 x the 32 MiB last-level cache)"
};

// out = x + 1 in float32 over buffers that no cache holds: 4 times a CPU's last-level cache (at least
// 64 MiB, at most 1 GiB each), 512 MiB each on a GPU, whose target gives no cache sizes. It gets the
// default opts, so that it streams as a person's large element-wise kernel does (vectors, the cores,
// a CPU's non-temporal stores).
PeakBenchmark bandwidth_benchmark(const Target& t);

// out[i] = sum over r of a[i] * b[r] in dtype, throughput-bound: each thread keeps fma_chains(t)
// independent accumulators (UPCAST of the outputs; on a CPU of whole vectors, float_lanes() wide), each
// step loads one b[r] for all of them (it stays in the L1 cache), and the reduce is unrolled by 4 so
// that the loop's own instructions are few. The outputs are split over a CPU's cores (THREAD) or a
// GPU's workgroups of 128 threads (LOCAL), enough of them to fill every multiprocessor.
PeakBenchmark compute_benchmark(const Target& t, DType dtype);

// out = x + 1 over one element: what a launch costs on its own.
PeakBenchmark launch_benchmark();

// The independent multiply-add chains a thread of the compute benchmark keeps.
int fma_chains(const Target& t);

}  // namespace tr
