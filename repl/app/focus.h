#pragma once
// The schedule that the kernel views (:kernels :ast :uops :src :opt :opts) look at: the last realize's,
// or the one `:kernels x` made. K is an item's index in it, as :kernels numbers them.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/realize.h"

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

 private:
  std::vector<ScheduleItem> schedule_;
  std::map<int, KernelRecord> kernels_;
};

}  // namespace tr::repl
