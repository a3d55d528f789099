#pragma once
// The default opts: a hand-written heuristic that reads the target (vector lanes, cores, workgroup
// limits and local memory) rather than numbers of one machine.
#include "core/kernel/kernel.h"
#include "core/ir/target.h"

namespace tr {

Kernel default_opts(const Kernel& k, const Target& target);

// A CPU matmul's register tile: `rows` rows by `vectors` vector registers of `lanes` columns. Its
// accumulators, one register per column vector of the other operand and one broadcast value fit in
// the instruction set's vector registers: 4x2 of 16 (SSE, AVX2), 8x2 of 32 (AVX-512, NEON).
struct RegisterTile {
  int64_t rows = 1, vectors = 1, lanes = 1;
};
RegisterTile cpu_register_tile(const Target& target);

}  // namespace tr
