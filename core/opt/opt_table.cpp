#include "core/opt/opt_table.h"

#include <fmt/format.h>

namespace tr {

std::string_view needs_str(OptNeeds needs) {
  switch (needs) {
    case OptNeeds::Nothing: return "";
    case OptNeeds::LocalMemory: return "workgroups with local memory (a GPU)";
    case OptNeeds::CpuCores: return "a CPU with several cores";
    case OptNeeds::MatrixUnits: return "a GPU with matrix units (tensor cores)";
  }
  return "?";
}

bool target_has(const Target& target, OptNeeds needs) {
  switch (needs) {
    case OptNeeds::Nothing: return true;
    case OptNeeds::LocalMemory: return target.gpu && target.local_memory > 0;
    case OptNeeds::CpuCores: return !target.gpu && target.cores > 1;
    case OptNeeds::MatrixUnits: return target.gpu && target.local_memory > 0 && !target.matrix_units.empty();
  }
  return false;
}

const std::vector<OptInfo>& opt_table() {
  using enum DimRole;
  static const std::vector<OptInfo> table{
      {OptOp::Upcast, "UPCAST", {Global}, Upcast, false, OptNeeds::Nothing, {2, 3, 4, 8, 16},
       "unroll an output dim into registers (one vector where the lanes are contiguous)"},
      {OptOp::Unroll, "UNROLL", {Reduce}, Unroll, false, OptNeeds::Nothing, {2, 3, 4, 8, 16},
       "unroll a reduce dim: that many elements combined per step"},
      {OptOp::Local, "LOCAL", {Global}, Local, false, OptNeeds::LocalMemory, {2, 3, 4, 8, 16},
       "make an output dim a workgroup dim: that many threads share a workgroup"},
      {OptOp::Group, "GROUP", {Reduce}, Group, false, OptNeeds::LocalMemory, {8, 16, 32},
       "split a reduce dim across a workgroup's threads, combined through local memory"},
      {OptOp::Thread, "THREAD", {Global, Reduce}, Thread, true, OptNeeds::CpuCores, {},
       "split a dim over CPU cores, each core one contiguous block; of a reduce dim, the cores' partial "
       "results are combined at the end"},
      {OptOp::Padto, "PADTO", {Global, Reduce}, std::nullopt, false, OptNeeds::Nothing, {16, 32},
       "pad a dim up to a multiple of AMOUNT (masked), so that other opts divide it"},
      {OptOp::Tc, "TC", {Reduce}, std::nullopt, false, OptNeeds::MatrixUnits, {16, 8},
       "a sum of half products on the matrix unit whose K is AMOUNT (tensor cores): one WMMA per step, the "
       "warp's lanes over two output dims"},
      {OptOp::Stage, "STAGE", {Reduce}, Unroll, false, OptNeeds::LocalMemory, {4, 8, 16},
       "unroll a reduce dim by AMOUNT and stage each step's tiles of the loads that a workgroup's threads share "
       "in local memory"},
      {OptOp::Double, "DOUBLE", {Reduce}, std::nullopt, false, OptNeeds::LocalMemory, {2},
       "give the staged tiles of the reduce dim that STAGE took two halves: each turn's copies load the next "
       "turn's tiles while it computes (double buffering); AMOUNT is 2"},
      {OptOp::Block, "BLOCK", {Global, Reduce}, Block, true, OptNeeds::Nothing, {64, 256, 512},
       "walk a dim in blocks of AMOUNT, the blocks the outermost loop, so that what a block reads stays in "
       "the cache; of a reduce dim, each block a pass over every output, whose partial results wait in "
       "the output buffer"},
  };
  return table;
}

const OptInfo& opt_info(OptOp op) {
  for (const OptInfo& o : opt_table())
    if (o.op == op) return o;
  return opt_table().front();
}

std::string_view opt_name(OptOp op) { return opt_info(op).name; }

std::optional<OptOp> parse_opt(std::string_view s) {
  for (const OptInfo& o : opt_table())
    if (o.name == s) return o.op;
  return std::nullopt;
}

std::string opt_names() {
  std::vector<std::string_view> names;
  for (const OptInfo& o : opt_table()) names.push_back(o.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string Opt::str() const { return fmt::format("{}({}, {})", opt_name(op), dim, amount); }

}  // namespace tr
