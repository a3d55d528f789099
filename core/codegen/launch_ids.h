#pragma once
// Which launch id each dim of a GPU kernel becomes: the lowering spells them as SPECIALs, and an opt is
// checked against the device's launch limits with the same sizes.
#include <array>
#include <cstdint>
#include <vector>

#include "core/kernel/kernel.h"
#include "core/ir/uops.h"

namespace tr {

// One launch id: its axis (0 = x), the kernel dims it numbers (outermost first) and its size.
struct LaunchId {
  int axis;
  std::vector<size_t> dims;
  int64_t size;
};

// The ids of one kind (Global: the output dims; Local: the LOCAL and GROUP dims), numbered from 0: the
// innermost dims take x, so neighbouring threads touch neighbouring elements. Past three dims, the
// leading ones share the last id and are recovered from it by division. A global id on y or z larger
// than the target's max_groups there joins x (as its outer part), so that no launch has more
// workgroups on an axis than the device allows; a local id past the device's limits is refused by
// the opt that makes it (apply_opt).
std::vector<LaunchId> launch_ids(const Kernel& k, LaunchKind kind, const Target& target);

// The sizes of the ids of one kind per launch axis (1 where none).
std::array<int64_t, 3> launch_sizes(const Kernel& k, LaunchKind kind, const Target& target);

}  // namespace tr
