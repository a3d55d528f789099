#include "core/row_fits.h"

#include <fmt/format.h>

namespace tr {

std::optional<std::string> row_too_long(const Target& target, int64_t elements, DType dtype) {
  // a CPU that did not say its L2 size is taken to have 256 KiB, the smallest of current x86 cores
  const int64_t fits = target.gpu ? target.local_memory : (target.caches.l2 > 0 ? target.caches.l2 : int64_t{256} << 10);
  const int64_t bytes = elements * itemsize(dtype);
  if (bytes <= fits) return std::nullopt;
  return fmt::format("its row of {} elements ({} bytes) is walked again after the reduce, and is larger than {} ({} "
                     "bytes), so each walk gets a kernel of its own",
                     elements, bytes, target.gpu ? "a workgroup's local memory" : "the L2 cache", fits);
}

}  // namespace tr
