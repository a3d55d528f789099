#include "core/realize/run_history.h"

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
  if (kept_.size() < kKept) {
    kept_.push_back(r);
  } else {
    kept_[count_ % kKept] = r;
  }
  count_++;
}

void RunHistory::clear() { *this = {}; }

std::vector<RunRecord> RunHistory::since(size_t from) const {
  std::vector<RunRecord> out;
  for (size_t n = std::clamp(from, count_ - kept_.size(), count_); n < count_; n++) out.push_back(kept_[n % kKept]);
  return out;
}

}  // namespace tr
