#pragma once
// What a kernel touches: the elements of each buffer that its loads and its store reach through their
// ShapeTrackers, not the buffers' whole sizes, so that GB/s is true for a kernel that reads a view.
#include <cstdint>
#include <utility>
#include <vector>

#include "core/kernel/ast.h"

namespace tr {

// At most how many distinct buffer elements `st` reaches: every view bounds it by the positions that
// differ in a dim it walks (a stride that is not 0) and that its mask keeps.
int64_t elements_touched(const ShapeTracker& st);

// The largest index any view of `st` can compute (its offset plus each dim's reach), as a bound of the
// integers a kernel needs to index through it.
int64_t largest_index(const ShapeTracker& st);

// Bytes the kernel moves: for each buffer (dtype and size, by its idx), the elements its loads and its
// store reach, at most the whole buffer.
int64_t bytes_touched(const AstRef& ast, const std::vector<std::pair<DType, int64_t>>& buffers);

}  // namespace tr
