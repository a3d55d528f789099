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
};

// Every opt, in the order `:help opts` lists them.
const std::vector<OptInfo>& opt_table();
const OptInfo& opt_info(OptOp op);

}  // namespace tr
