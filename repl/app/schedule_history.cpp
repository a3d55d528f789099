#include "repl/app/schedule_history.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/schedule/detached.h"

namespace tr::repl {
namespace {

void trim(std::deque<KeptItem>& items, size_t& dropped) {
  while (items.size() > ScheduleHistory::kMaxItems) {
    items.pop_front();
    dropped++;
  }
}

}  // namespace

bool StatementSchedule::has_kernel() const {
  return std::any_of(items.begin(), items.end(), [](const KeptItem& i) { return i.is_kernel(); });
}

std::vector<RunRecord> StatementSchedule::runs() const {
  std::vector<RunRecord> out;
  for (size_t k = 0; k < items.size(); k++) {
    if (!items[k].run) continue;
    out.push_back(*items[k].run);
    // a kernel that :opt changed ran as it is now (run_with_opts timed it)
    if (const auto changed = kernels.find(static_cast<int>(k)); changed != kernels.end() && !out.back().is_copy)
      out.back().kernel = changed->second;
  }
  return out;
}

void ScheduleHistory::begin_statement(std::string text) {
  end_statement();
  open_ = StatementSchedule{.statement = std::move(text)};
  base_ = 0;
}

void ScheduleHistory::add_schedule(const std::vector<ScheduleItem>& schedule) {
  if (!open_) return;
  base_ = open_->dropped + open_->items.size();
  for (ScheduleItem& item : detached(schedule)) open_->items.push_back(KeptItem{.scheduled = std::move(item)});
  trim(open_->items, open_->dropped);
}

void ScheduleHistory::add_run(const RunRecord& r) {
  if (!open_) return;
  if (r.item < 0) {
    open_->items.push_back(KeptItem{.run = r});
    trim(open_->items, open_->dropped);
    return;
  }
  const size_t at = base_ + static_cast<size_t>(r.item);
  if (at >= open_->dropped && at - open_->dropped < open_->items.size()) open_->items[at - open_->dropped].run = r;
}

void ScheduleHistory::end_statement() {
  if (!open_) return;
  StatementSchedule done = std::move(*open_);
  open_.reset();
  if (!done.items.empty()) keep(std::move(done));
}

void ScheduleHistory::plan(const std::vector<ScheduleItem>& schedule) {
  StatementSchedule planned{.statement = open_ ? open_->statement : "", .planned = true};
  for (ScheduleItem& item : detached(schedule)) planned.items.push_back(KeptItem{.scheduled = std::move(item)});
  trim(planned.items, planned.dropped);
  keep(std::move(planned));
  selected_ = entries_.back().number;  // even without a kernel: :kernels x asked for it
}

void ScheduleHistory::keep(StatementSchedule entry) {
  entry.number = ++numbered_;
  version_++;
  const StatementSchedule* was = selected();
  if (entry.has_kernel() || !was || !was->has_kernel()) selected_ = entry.number;
  kept_items_ += entry.items.size();
  entries_.push_back(std::move(entry));
  while (entries_.size() > 1 && (entries_.size() > kMaxStatements || kept_items_ > kMaxItems)) {
    kept_items_ -= entries_.front().items.size();
    entries_.pop_front();
  }
  if (!selected()) selected_ = entries_.back().number;  // the selected entry was the oldest, and went
}

const StatementSchedule* ScheduleHistory::selected() const {
  if (!selected_ || entries_.empty() || *selected_ < entries_.front().number) return nullptr;
  return &entries_[*selected_ - entries_.front().number];
}

StatementSchedule& ScheduleHistory::chosen() {
  if (!selected()) fail("value", "no schedule yet: realize something (print(x), x.realize()) or use :kernels x");
  return entries_[*selected_ - entries_.front().number];
}

void ScheduleHistory::select(int64_t number) {
  if (entries_.empty()) fail("value", "no statement has scheduled anything yet");
  const int64_t first = static_cast<int64_t>(entries_.front().number), last = static_cast<int64_t>(entries_.back().number);
  const int64_t n = number < 0 ? last + 1 + number : number;
  if (n < first || n > last)
    fail("value", "no statement {} in the history: it keeps {}..{} (or -1 for the newest, -2 before it, ...)", number,
         first, last);
  selected_ = static_cast<uint64_t>(n);
  version_++;
}

bool ScheduleHistory::step(int step) {
  const StatementSchedule* now = selected();
  if (!now) return false;
  const int64_t to = static_cast<int64_t>(now->number) + step;
  if (to < static_cast<int64_t>(entries_.front().number) || to > static_cast<int64_t>(entries_.back().number))
    return false;
  selected_ = static_cast<uint64_t>(to);
  version_++;
  return true;
}

size_t ScheduleHistory::size() const {
  const StatementSchedule* s = selected();
  return s ? s->items.size() : 0;
}

const KeptItem& ScheduleHistory::item(int k) const { return selected()->items.at(static_cast<size_t>(k)); }

const RunRecord* ScheduleHistory::run(int k) const {
  const StatementSchedule* s = selected();
  if (!s || k < 0 || k >= static_cast<int>(s->items.size())) return nullptr;
  const std::optional<RunRecord>& r = s->items[static_cast<size_t>(k)].run;
  return r ? &*r : nullptr;
}

int ScheduleHistory::kernel_index(std::optional<std::string> k) const {
  const StatementSchedule* s = selected();
  if (!s) fail("value", "no schedule yet: realize something (print(x), x.realize()) or use :kernels x");
  const std::string which =
      s == &entries_.back() ? "the last schedule" : fmt::format("the schedule of statement {}", s->number);
  const int n = static_cast<int>(s->items.size());
  if (!k) {
    for (int i = n - 1; i >= 0; i--)
      if (s->items[static_cast<size_t>(i)].is_kernel()) return i;
    fail("value", "{} has only copies, no kernel", which);
  }
  int i = -1;
  const auto [end, ec] = std::from_chars(k->data(), k->data() + k->size(), i);
  if (ec != std::errc() || end != k->data() + k->size())
    fail("value", "expected a kernel index (0..{}), not '{}'", n - 1, *k);
  if (i < 0) i += n;  // -1 is the last item, as in Python
  if (i < 0 || i >= n)
    fail("value", "no kernel {} in {}: it has {} item{} (0..{})", *k, which, n, n == 1 ? "" : "s", n - 1);
  if (!s->items[static_cast<size_t>(i)].is_kernel()) fail("value", "item {} of {} is a copy, not a kernel", i, which);
  return i;
}

const KernelRecord& ScheduleHistory::kernel(int k) {
  StatementSchedule& s = chosen();
  auto it = s.kernels.find(k);
  if (it != s.kernels.end()) return it->second;
  const KeptItem& item = s.items.at(static_cast<size_t>(k));
  if (item.run) return item.run->kernel;
  const ScheduleItem& scheduled = *item.scheduled;
  return s.kernels.emplace(k, lower(scheduled, scheduled.outputs[0]->device)).first->second;
}

void ScheduleHistory::replace_kernel(int k, KernelRecord r) {
  KernelRecord was = kernel(k);
  StatementSchedule& s = chosen();
  std::vector<KernelRecord>& versions = s.replaced[k];
  versions.push_back(std::move(was));
  if (versions.size() > kMaxVersions) versions.erase(versions.begin());
  s.kernels.insert_or_assign(k, std::move(r));
  version_++;
}

std::vector<KernelRecord> ScheduleHistory::replaced(int k) const {
  const StatementSchedule* s = selected();
  if (!s) return {};
  const auto it = s->replaced.find(k);
  return it == s->replaced.end() ? std::vector<KernelRecord>{} : it->second;
}

}  // namespace tr::repl
