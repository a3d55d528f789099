#include "repl/app/focus.h"

#include <charconv>

#include "core/base/error.h"

namespace tr::repl {

void Focus::show_realization(const Realization& r) {
  schedule_ = r.schedule;
  runs_ = r.runs;
  version_++;
  kernels_.clear();
  // runs follow the schedule item by item, up to the first that failed
  for (size_t i = 0; i < r.runs.size() && i < schedule_.size(); i++)
    if (!r.runs[i].is_copy) kernels_.emplace(static_cast<int>(i), r.runs[i].kernel);
}

void Focus::show_schedule(std::vector<ScheduleItem> schedule) {
  schedule_ = std::move(schedule);
  runs_.clear();
  version_++;
  kernels_.clear();
}

const RunRecord* Focus::run(int k) const {
  return k >= 0 && k < static_cast<int>(runs_.size()) && k < static_cast<int>(schedule_.size()) ? &runs_[k] : nullptr;
}

int Focus::kernel_index(std::optional<std::string> k) const {
  if (schedule_.empty()) fail("value", "no schedule yet: realize something (print(x), x.realize()) or use :kernels x");
  const int n = static_cast<int>(schedule_.size());
  if (!k) {
    for (int i = n - 1; i >= 0; i--)
      if (schedule_[static_cast<size_t>(i)].kind == ScheduleItem::Kind::Kernel) return i;
    fail("value", "the last schedule has only copies, no kernel");
  }
  int i = -1;
  const auto [end, ec] = std::from_chars(k->data(), k->data() + k->size(), i);
  if (ec != std::errc() || end != k->data() + k->size())
    fail("value", "expected a kernel index (0..{}), not '{}'", n - 1, *k);
  if (i < 0) i += n;  // -1 is the last item, as in Python
  if (i < 0 || i >= n) fail("value", "no kernel {} in the last schedule: it has {} item{} (0..{})", *k, n,
                            n == 1 ? "" : "s", n - 1);
  if (schedule_[static_cast<size_t>(i)].kind != ScheduleItem::Kind::Kernel)
    fail("value", "item {} of the last schedule is a copy, not a kernel", i);
  return i;
}

const KernelRecord& Focus::kernel(int k) {
  auto it = kernels_.find(k);
  if (it == kernels_.end()) {
    const ScheduleItem& item = schedule_.at(static_cast<size_t>(k));
    it = kernels_.emplace(k, lower(item, item.outputs[0]->device)).first;
  }
  return it->second;
}

void Focus::replace_kernel(int k, KernelRecord r) {
  kernels_.insert_or_assign(k, std::move(r));
  version_++;
}

}  // namespace tr::repl
