#pragma once
// Every statement's schedules, kept for the kernel views (:kernels :ast :uops :src :time :opt :diff and
// the TUI's panes) to go back to, and which of them those views look at: a print after a matmul does
// not take the matmul away. K is an item's index in the selected statement's schedules.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/realize/realize.h"

namespace tr::repl {

// An item of a statement's schedules: a kernel or copy that a realize scheduled (with its run, once it
// ran), or a run that no schedule planned (a read-back to the host, a @jit replay's kernel or copy).
struct KeptItem {
  std::optional<ScheduleItem> scheduled{};  // detached (core/schedule/detached.h)
  std::optional<RunRecord> run{};
  bool is_kernel() const { return scheduled ? scheduled->kind == ScheduleItem::Kind::Kernel : !run->is_copy; }
};

// What one statement scheduled and ran, or what `:kernels x` planned.
struct StatementSchedule {
  uint64_t number = 0;    // 1, 2, ... over the session's statements that scheduled anything: :history N
  std::string statement;  // as typed
  bool planned = false;   // :kernels x: scheduled, not run
  std::deque<KeptItem> items{};
  size_t dropped = 0;  // the oldest items of a statement that ran more than the history keeps
  // Kernel items lowered since (those that did not run) or changed by :opt, by K.
  std::map<int, KernelRecord> kernels{};
  // The versions :opt replaced, oldest first, by K: what :diff compares the kernel with.
  std::map<int, std::vector<KernelRecord>> replaced{};

  bool has_kernel() const;
  // The runs of the items, in K order: Timings and :time.
  std::vector<RunRecord> runs() const;
};

class ScheduleHistory {
 public:
  // A statement keeps its newest kMaxItems items, and the history drops its oldest statements while it
  // holds more than kMaxItems items or kMaxStatements statements. Each kept kernel holds its UOps and
  // its source (a few KB, a few hundred for a large kernel), so 4096 of them cost tens of MB at worst:
  // more kernels than anyone pages through, few enough that a training loop's thousands of realizes
  // cannot grow the session without end. A hundred statements is more than `:history` is read back for.
  static constexpr size_t kMaxItems = 4096;
  static constexpr size_t kMaxStatements = 100;
  // :opt versions kept per kernel for :diff: tuning by hand makes a few.
  static constexpr size_t kMaxVersions = 16;

  // What a statement schedules and runs between begin and end becomes one entry; an entry that
  // ran a kernel is selected, as is any while the selected one has none. A statement that begins
  // inside another (a script's, under :run) ends the outer one's entry there. Runs outside a
  // statement are not kept.
  void begin_statement(std::string text);
  void add_schedule(const std::vector<ScheduleItem>& schedule);
  void add_run(const RunRecord& r);
  void end_statement();
  // :kernels x: an entry of the running statement's text whose items are planned, selected.
  void plan(const std::vector<ScheduleItem>& schedule);

  const std::deque<StatementSchedule>& entries() const { return entries_; }
  // The entry the views look at; null before any.
  const StatementSchedule* selected() const;
  // Selects entry `number`, or counts back from the newest when negative (-1 the newest, as Python
  // indexes); throws tr::Error("value") naming the numbers kept.
  void select(int64_t number);
  // Selects the entry `step` away from the selected one (-1 the older, +1 the newer); false at either end.
  bool step(int step);

  // The selected entry's items.
  size_t size() const;
  bool empty() const { return size() == 0; }
  const KeptItem& item(int k) const;
  // K as typed, or the last kernel when absent; throws tr::Error("value") when it names no kernel.
  int kernel_index(std::optional<std::string> k) const;
  // Kernel k as it ran, or lowered now (and kept) when it has not run, or as :opt left it.
  const KernelRecord& kernel(int k);
  // :opt: kernel k from now on; the version it replaces is kept for :diff.
  void replace_kernel(int k, KernelRecord r);
  // The versions of kernel k that :opt replaced, oldest first.
  std::vector<KernelRecord> replaced(int k) const;
  // How item k ran; nullptr when it has not (a planned item, one after an item that failed).
  const RunRecord* run(int k) const;
  // Counts the changes of what the views show (a new entry, another selected, a kernel replaced), so
  // that a viewer knows when to look again.
  uint64_t version() const { return version_; }

 private:
  StatementSchedule& chosen();
  void keep(StatementSchedule entry);

  std::deque<StatementSchedule> entries_;
  std::optional<StatementSchedule> open_;  // the running statement's
  size_t base_ = 0;                        // the open entry's index (dropped ones counted) of its last realize's item 0
  size_t kept_items_ = 0;                  // over entries_
  uint64_t numbered_ = 0;
  std::optional<uint64_t> selected_;  // an entry's number
  uint64_t version_ = 0;
};

}  // namespace tr::repl
