#pragma once
// When several reduces of one kernel walk the same row (softmax: its max, its sum, then the output),
// the row is read once per walk. A row that stays close to the cores between the walks makes the
// extra walks cheap; a longer one is better split into kernels that each read it once.
#include <cstdint>
#include <optional>
#include <string>

#include "core/ir/dtype.h"
#include "core/ir/target.h"

namespace tr {

// Why a row of `elements` values of `dtype` is too long to be walked several times in one kernel on
// this target; nothing when it fits (a CPU: its L2 cache; a GPU: one warp's worth of elements, since
// one thread walks each row of such a kernel).
std::optional<std::string> row_too_long(const Target& target, int64_t elements, DType dtype);

}  // namespace tr
