#pragma once
// The one description of every opt: what it splits, what the new piece becomes, what it needs of
// the device, what BEAM tries. apply_opt, the `:opt` parser, BEAM and `:help` read it.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/kernel/kernel.h"
#include "core/opt/opt.h"
#include "core/ir/target.h"

namespace tr {

// What an opt needs of the device it runs on.
enum class OptNeeds : uint8_t {
  Nothing,
  LocalMemory,  // workgroups that share local memory (a GPU)
  CpuCores,     // a CPU with more than one core
  MatrixUnits,  // a GPU with matrix units (tensor cores) that the lowering knows the layout of
};
std::string_view needs_str(OptNeeds needs);  // "", "workgroups with local memory (a GPU)", ...
bool target_has(const Target& target, OptNeeds needs);

// What a kernel may already have that an opt cannot be combined with (or needs).
enum class KernelHas : uint8_t {
  OutputInBlocks,  // an output dim walked in blocks (BLOCK), the outermost loop
  ReduceInBlocks,  // a reduce dim walked in blocks, whose partial results one thread keeps
  MatrixUnit,      // the reduce on the matrix unit (TC)
  Staged,          // tiles staged in local memory (STAGE)
  Grouped,         // a reduce split over a workgroup's threads (GROUP)
  Threads,         // a dim split over CPU cores (THREAD)
  ReduceThreads,   // a reduce dim split over CPU cores
};
bool kernel_has(const Kernel& k, KernelHas what);
std::string_view kernel_has_name(KernelHas what);  // "a BLOCK", "a reduce in BLOCKs", "TC", ... for `:help opts`

// One rule of which opts combine: the opt is refused where the kernel has `with` (or, for a rule of
// `requires`, where it lacks it), on any dim or only on a reduce dim, and `why` says so.
struct OptRule {
  KernelHas with;
  bool reduce_dim_only = false;
  std::string_view why;
};

// Whether an opt applies to a kernel that walks its rows several times (softmax): each walk lowers
// its own loops, so an unrolled piece and a group's threads serve every walk, but an upcast would have
// to be repeated in each, which the lowering does not do.
enum class RowsAgain : uint8_t { Applies, OutputDimsOnly, Never };

struct OptInfo {
  OptOp op;
  std::string_view name;              // "UPCAST": as `:opt` and a kernel's opt list spell it
  std::vector<DimRole> takes;         // the roles of the dims it applies to
  std::optional<DimRole> gives;       // the role of the piece it splits off; none: it splits nothing (PADTO)
                                      // or several dims (TC)
  bool gives_outer;                   // the new piece is the outer one (THREAD: each core walks one block)
  OptNeeds needs;
  std::vector<int64_t> beam_amounts;  // the amounts BEAM tries; none for THREAD, which tries the cores
  std::string_view help;              // one line for `:help opts`
  std::vector<OptRule> conflicts{};   // what the kernel may not have already
  std::vector<OptRule> requires_{};   // what the kernel must have already
  RowsAgain rows_again = RowsAgain::Applies;
};

// Refuses (tr::Error "opt") an opt that the table's rules do not let this kernel take on dim d.
void check_combines(const Kernel& k, const Opt& opt, const Dim& d);

// Every opt, in the order `:help opts` lists them.
const std::vector<OptInfo>& opt_table();
const OptInfo& opt_info(OptOp op);

}  // namespace tr
