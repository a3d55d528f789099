#pragma once
// The kernels and copies this process has run, in order, numbered from 0. A training loop under @jit
// records every launch it replays, thousands a second: only the newest kKept records stay, and the
// totals count every one.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/realize/run_record.h"

namespace tr {

struct RunTotals {
  int64_t kernels = 0, copies = 0, flops = 0, bytes = 0;  // flops and bytes: of the kernels
  double seconds = 0;                                     // of kernels and copies
  void add(const RunRecord& r);
  RunTotals since(const RunTotals& earlier) const;  // what was added after `earlier` was taken
  static RunTotals of(const std::vector<RunRecord>& runs);
};

class RunHistory {
 public:
  // A record's UOps and source are shared with its program's, the rest is small.
  static constexpr size_t kKept = size_t{1} << 14;

  void add(const RunRecord& r);
  void clear();
  // How many were added: the next record's number.
  size_t count() const { return count_; }
  // The records numbered `from` on that are still kept.
  std::vector<RunRecord> since(size_t from) const;
  const RunTotals& totals() const { return totals_; }

 private:
  // A ring once full: record n sits at n % kKept, so a new record is copied over the oldest one's
  // storage (a deque of records this size allocated a node for every record and freed one).
  std::vector<RunRecord> kept_;
  size_t count_ = 0;
  RunTotals totals_;
};

}  // namespace tr
