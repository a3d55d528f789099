#include "core/run_history.h"

#include <algorithm>

namespace tr {

void RunTotals::add(const RunRecord& r) {
  seconds += run_seconds(r);
  if (r.is_copy) {
    copies++;
    return;
  }
  kernels++;
  flops += r.kernel.program->flops;
  bytes += r.kernel.program->bytes;
}

RunTotals RunTotals::since(const RunTotals& earlier) const {
  return {kernels - earlier.kernels, copies - earlier.copies, flops - earlier.flops, bytes - earlier.bytes,
          seconds - earlier.seconds};
}

RunTotals RunTotals::of(const std::vector<RunRecord>& runs) {
  RunTotals t;
  for (const RunRecord& r : runs) t.add(r);
  return t;
}

void RunHistory::add(const RunRecord& r) {
  totals_.add(r);
  if (kept_.size() == kKept) {
    kept_.pop_front();
    dropped_++;
  }
  kept_.push_back(r);
}

void RunHistory::clear() { *this = {}; }

std::vector<RunRecord> RunHistory::since(size_t from) const {
  const size_t first = std::clamp(from, dropped_, count()) - dropped_;
  return {kept_.begin() + static_cast<std::ptrdiff_t>(first), kept_.end()};
}

}  // namespace tr
