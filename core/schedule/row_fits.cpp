#include "core/schedule/row_fits.h"

#include <algorithm>

#include <fmt/format.h>

namespace tr {

std::optional<std::string> row_too_long(const Target& target, int64_t elements, DType dtype) {
  if (target.gpu) {
    // A workgroup walks each row of such a kernel where the device has workgroups with local memory
    // (core/opt/heuristic.cpp), its threads side by side, up to 64 elements per thread per walk; else
    // one thread walks it, whose loads are not coalesced with its neighbours', which pays only for rows
    // as short as a warp (32 where the device does not say).
    const int64_t warp = target.warp_size > 0 ? target.warp_size : 32;
    const int64_t fits = target.local_memory > 0 ? std::max<int64_t>(warp, target.max_local * 64) : warp;
    if (elements <= fits) return std::nullopt;
    return fmt::format("its row of {} elements is walked again after the reduce, and on a GPU a kernel that walks "
                       "its rows again pays only up to {} elements ({}); each walk gets a kernel of its own",
                       elements, fits, target.local_memory > 0 ? "64 per thread of a workgroup" : "a warp");
  }
  // a CPU that did not say its L2 size is taken to have 256 KiB, the smallest of current x86 cores
  const int64_t fits = target.caches.l2 > 0 ? target.caches.l2 : int64_t{256} << 10;
  const int64_t bytes = elements * itemsize(dtype);
  if (bytes <= fits) return std::nullopt;
  return fmt::format("its row of {} elements ({} bytes) is walked again after the reduce, and is larger than the "
                     "L2 cache ({} bytes), so each walk gets a kernel of its own",
                     elements, bytes, fits);
}

}  // namespace tr
