#include "core/row_fits.h"

#include <fmt/format.h>

namespace tr {

std::optional<std::string> row_too_long(const Target& target, int64_t elements, DType dtype) {
  if (target.gpu) {
    // One thread walks each row of such a kernel: its loads are not coalesced with its neighbours', so
    // only rows as short as a warp (32 where the device does not say) are worth the extra walks.
    const int64_t fits = target.warp_size > 0 ? target.warp_size : 32;
    if (elements <= fits) return std::nullopt;
    return fmt::format("its row of {} elements is walked again after the reduce, and on a GPU one thread walks "
                       "the row of such a kernel, which pays only up to {} elements (a warp); each walk gets a "
                       "kernel of its own",
                       elements, fits);
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
