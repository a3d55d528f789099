#pragma once
// Applying one opt to a kernel, as core/opt/opt_table.h describes it.
#include <vector>

#include "core/kernel/kernel.h"
#include "core/opt/opt.h"
#include "core/ir/target.h"

namespace tr {

// Throws tr::Error("opt", why) when the opt does not fit the kernel or the target.
Kernel apply_opt(const Kernel& k, const Opt& opt, const Target& target);

// TC (apply_tc.cpp): the kernel's reduce on the target's matrix unit whose K is opt.amount; opt.dim is
// the reduce dim it splits. Called by apply_opt after the checks every opt shares.
Kernel apply_tc(const Kernel& k, const Opt& opt, const Target& target);
// TC's amount: the target's matrix units whose K it is (one per input dtype); throws tr::Error("opt")
// where there is none. apply_opt checks an opt's own amount before the table's rules of what it combines with.
std::vector<MatrixUnit> units_of_k(const Opt& opt, const Target& target);

// PADTO's condition on a reduce dim: the reduce is a sum and its source is 0 wherever every load,
// constant and index under it reads 0 (the padded positions). Else why not.
std::optional<std::string> unsafe_to_pad_reduce(const Kernel& k);

}  // namespace tr
