#pragma once
// The default opts: the recipes of core/opt/recipes/ (tensor cores, register tile, column reduce,
// transpose, row lanes, GPU staging, unroll, GPU vectors, CPU upcast, workgroup, cores, cache blocks),
// each applied in that order where its condition holds. They read the target (vector lanes, registers,
// caches, cores; workgroup limits, local memory, matrix units), never numbers of one machine.
#include "core/ir/target.h"
#include "core/kernel/kernel.h"
#include "core/opt/recipes/recipe.h"

namespace tr {

Kernel default_opts(const Kernel& k, const Target& target);
// The same, with the recipes that ran and any that apply_opt refused: such a recipe is undone, so
// that the kernel gets fewer opts, never a refused one (a refusal is a recipe's bug, which the tests
// look for over every target).
OptPlan plan_default_opts(const Kernel& k, const Target& target);
// The recipes in the order they run.
const std::vector<Recipe>& default_recipes();

// A CPU matmul's register tile: `rows` rows by `vectors` vector registers of `lanes` columns. Its
// accumulators, one register per column vector of the other operand and one broadcast value fit in
// the instruction set's vector registers: 4x2 of 16 (SSE, AVX2), 8x2 of 32 (AVX-512, NEON).
struct RegisterTile {
  int64_t rows = 1, vectors = 1, lanes = 1;
};
RegisterTile cpu_register_tile(const Target& target);

}  // namespace tr
