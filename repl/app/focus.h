#pragma once
// The schedule that the kernel views (:kernels :ast :uops :src :opt :opts) look at: the last realize's,
// or the one `:kernels x` made. K is an item's index in it, as :kernels numbers them.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/realize/realize.h"

namespace tr::repl {

class Focus {
 public:
  void show_realization(const Realization& r);
  void show_schedule(std::vector<ScheduleItem> schedule);

  const std::vector<ScheduleItem>& schedule() const { return schedule_; }
  bool empty() const { return schedule_.empty(); }

  // K as typed, or the last kernel when absent; throws tr::Error("value") when it names no kernel.
  int kernel_index(std::optional<std::string> k) const;
  // Kernel k as it ran, or lowered now (and kept) when it has not run, or as :opt left it.
  const KernelRecord& kernel(int k);
  void replace_kernel(int k, KernelRecord r);
  // How item k ran; nullptr when it has not (a schedule of :kernels x, an item after one that failed).
  const RunRecord* run(int k) const;
  // Counts the changes of what the items are or show, so that a viewer knows when to look again.
  uint64_t version() const { return version_; }

 private:
  std::vector<ScheduleItem> schedule_;
  std::map<int, KernelRecord> kernels_;
  std::vector<RunRecord> runs_;
  uint64_t version_ = 0;
};

}  // namespace tr::repl
