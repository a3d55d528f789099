#include "core/opt/opt_table.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/base/error.h"

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

bool kernel_has(const Kernel& k, KernelHas what) {
  const auto any = [&](auto pred) { return std::any_of(k.dims.begin(), k.dims.end(), pred); };
  switch (what) {
    case KernelHas::OutputInBlocks: return any([&](const Dim& d) { return d.role == DimRole::Block && d.axis < k.first_reduce; });
    case KernelHas::ReduceInBlocks: return any([&](const Dim& d) { return d.role == DimRole::Block && d.axis >= k.first_reduce; });
    case KernelHas::MatrixUnit: return k.tc.has_value();
    case KernelHas::Staged: return k.stage_axis >= 0;
    case KernelHas::Grouped: return any([](const Dim& d) { return d.role == DimRole::Group; });
    case KernelHas::Threads: return any([](const Dim& d) { return d.role == DimRole::Thread; });
    case KernelHas::ReduceThreads: return any([&](const Dim& d) { return d.role == DimRole::Thread && d.axis >= k.first_reduce; });
  }
  return false;
}

std::string_view kernel_has_name(KernelHas what) {
  switch (what) {
    case KernelHas::OutputInBlocks: return "an output dim in BLOCKs";
    case KernelHas::ReduceInBlocks: return "a reduce in BLOCKs";
    case KernelHas::MatrixUnit: return "TC";
    case KernelHas::Staged: return "STAGE";
    case KernelHas::Grouped: return "GROUP";
    case KernelHas::Threads: return "THREAD";
    case KernelHas::ReduceThreads: return "THREAD of a reduce";
  }
  return "?";
}

void check_combines(const Kernel& k, const Opt& opt, const Dim& d) {
  const OptInfo& info = opt_info(opt.op);
  const bool reduce_dim = d.role != DimRole::Global;
  // the online softmax's steps rescale each other's sums: they run in order, one thread per output
  if (k.online_softmax && (reduce_dim || (opt.op != OptOp::Thread && opt.op != OptOp::Local)))
    fail("opt", "{}: this kernel is an online softmax (a running maximum rescales its sums at every step of the rows); "
                "only THREAD and LOCAL of an output dim apply to it",
         opt.str());
  if (k.walks_rows_again() &&
      (info.rows_again == RowsAgain::Never || (info.rows_again == RowsAgain::OutputDimsOnly && reduce_dim)))
    fail("opt", "{}: this kernel walks its rows {} times (reduces that read each other's results, or a store over "
                "the rows); only THREAD, LOCAL and PADTO of an output dim, UNROLL and GROUP apply to it",
         opt.str(), k.row_passes);
  for (const OptRule& r : info.requires_)
    if ((!r.reduce_dim_only || reduce_dim) && !kernel_has(k, r.with)) fail("opt", "{}: {}", opt.str(), r.why);
  for (const OptRule& r : info.conflicts)
    if ((!r.reduce_dim_only || reduce_dim) && kernel_has(k, r.with)) fail("opt", "{}: {}", opt.str(), r.why);
}

const std::vector<OptInfo>& opt_table() {
  using enum DimRole;
  using enum KernelHas;
  static constexpr std::string_view kBlocksKeepPartials = "the reduce is walked in blocks (BLOCK), whose partial results one thread keeps";
  static constexpr std::string_view kStagedWhole = "the kernel's tiles are staged in local memory (STAGE), which takes the reduce whole";
  static const std::vector<OptInfo> table{
      {OptOp::Upcast, "UPCAST", {Global}, Upcast, false, OptNeeds::Nothing, {2, 3, 4, 8, 16},
       "unroll an output dim into registers (one vector where the lanes are contiguous)", {}, {}, RowsAgain::Never},
      {OptOp::Unroll, "UNROLL", {Reduce}, Unroll, false, OptNeeds::Nothing, {2, 3, 4, 8, 16},
       "unroll a reduce dim: that many elements combined per step"},
      {OptOp::Local, "LOCAL", {Global}, Local, false, OptNeeds::LocalMemory, {2, 3, 4, 8, 16},
       "make an output dim a workgroup dim: that many threads share a workgroup"},
      {OptOp::Group, "GROUP", {Reduce}, Group, false, OptNeeds::LocalMemory, {8, 16, 32},
       "split a reduce dim across a workgroup's threads, combined through local memory",
       {{ReduceInBlocks, false, kBlocksKeepPartials},
        {MatrixUnit, false, "the reduce is on the matrix unit, whose warp needs it whole"},
        {Staged, false, kStagedWhole}}},
      {OptOp::Thread, "THREAD", {Global, Reduce}, Thread, true, OptNeeds::CpuCores, {},
       "split a dim over CPU cores, each core one contiguous block; of a reduce dim, the cores' partial "
       "results are combined at the end",
       {{ReduceInBlocks, true, kBlocksKeepPartials}, {Threads, false, "the kernel is already split over threads"}}},
      {OptOp::Padto, "PADTO", {Global, Reduce}, std::nullopt, false, OptNeeds::Nothing, {16, 32},
       "pad a dim up to a multiple of AMOUNT (masked), so that other opts divide it", {}, {}, RowsAgain::OutputDimsOnly},
      {OptOp::Tc, "TC", {Reduce}, std::nullopt, false, OptNeeds::MatrixUnits, {16, 8},
       "a sum of half products on the matrix unit whose K is AMOUNT (tensor cores): one WMMA per step, the "
       "warp's lanes over two output dims",
       {{ReduceInBlocks, false, kBlocksKeepPartials},
        {Staged, false, kStagedWhole},
        {MatrixUnit, false, "the reduce is already on the matrix unit"},
        {Grouped, false, "a GROUP splits the reduce over the workgroup, and a warp of the matrix unit needs it whole"}},
       {},
       RowsAgain::Never},
      {OptOp::Stage, "STAGE", {Reduce}, Unroll, false, OptNeeds::LocalMemory, {4, 8, 16},
       "unroll a reduce dim by AMOUNT and stage each step's tiles of the loads that a workgroup's threads share "
       "in local memory",
       {{ReduceInBlocks, false, kBlocksKeepPartials},
        {Staged, false, "the kernel's tiles are staged already"},
        {Grouped, false, "a GROUP's threads each read their own part of the reduce"}}},
      {OptOp::Double, "DOUBLE", {Reduce}, std::nullopt, false, OptNeeds::LocalMemory, {2},
       "give the staged tiles of the reduce dim that STAGE took two halves: each turn's copies load the next "
       "turn's tiles while it computes (double buffering); AMOUNT is 2",
       {},
       {{Staged, false, "DOUBLE takes the reduce dim whose tiles STAGE put in local memory; the kernel has none"}}},
      {OptOp::Block, "BLOCK", {Global, Reduce}, Block, true, OptNeeds::Nothing, {64, 256, 512},
       "walk a dim in blocks of AMOUNT, the blocks the outermost loop, so that what a block reads stays in "
       "the cache; of a reduce dim, each block a pass over every output, whose partial results wait in "
       "the output buffer; a reduce's and then an output dim's (panels of the output, outermost) combine",
       {{OutputInBlocks, false, "an output dim is walked in blocks already, the outermost loop (BLOCK the reduce first)"},
        {ReduceInBlocks, true, "the reduce is walked in blocks already"},
        {Grouped, true, "the reduce is split over threads, which combine their parts once, at the end"},
        {ReduceThreads, true, "the reduce is split over threads, which combine their parts once, at the end"},
        {MatrixUnit, true, "the reduce is on the matrix unit or staged in local memory, which take it whole"},
        {Staged, true, "the reduce is on the matrix unit or staged in local memory, which take it whole"}}},
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
