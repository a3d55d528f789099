#pragma once
// Runs a schedule: allocates, applies opts, lowers, renders, compiles, launches and times each item.
// Every run leaves a record (core/realize/run_record.h) in the history (core/realize/run_history.h).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/device.h"
#include "core/kernel/kernel.h"
#include "core/lazy/lazy.h"
#include "core/realize/run_history.h"
#include "core/schedule/schedule.h"
#include "core/ir/uops.h"

namespace tr {

struct Realization {
  std::vector<ScheduleItem> schedule;
  std::vector<RunRecord> runs;
  double schedule_ms = 0;
  uint64_t number = 0;  // which realize (or replay of recorded runs) of this process made it: 1, 2, ...
};

// Schedules and runs what is needed for outs; an empty schedule when all are realized.
Realization realize(const std::vector<LazyRef>& outs);
// Lowers one kernel item as it would run (opts as the settings say) without running it.
KernelRecord lower(const ScheduleItem& item, const std::string& device);
// The UOps of each lowering pass of a lowered kernel (DEBUG 6, `:uops K all`), lowered again on its
// device's target.
std::vector<PassSnapshot> lowering_passes(const KernelRecord& rec);
// Lowers k with the given opts (for :opt), compiles and times it on its device over fresh buffers.
KernelRecord run_with_opts(const KernelRecord& base, const std::vector<Opt>& opts);

// Times n more runs of a kernel that has run, on fresh zeroed buffers of its sizes (its own may be
// gone), with the program this process compiled for it. `before_each` runs before each run: a
// benchmark's reference, taken in turn with the kernel so that both meet the same moments of a machine
// whose speed drifts.
std::vector<double> time_again(const KernelRecord& k, int n, const std::function<void()>& before_each = {});

// How many kernel programs this process has built: compiled, or loaded from the on-disk compile cache.
// A kernel whose source this process built before runs that program and adds none.
int64_t programs_built();

// Copies `buf` out to host memory at dst and records the read-back as a copy to HOST (in the history and
// for the listener, after the realize that made the buffer; not in the last realization's runs).
void read_back(void* dst, const Buffer& buf);

// A kernel or copy as it ran, with what it needs to run again: what a jitted function captures.
struct Launch {
  RunRecord record;
  std::shared_ptr<Program> program;      // null for a copy
  std::vector<BufferRef> buffers;        // the output, then what it reads (a copy from the host reads none)
  std::shared_ptr<const HostData> host;  // a copy from the host: its values
  // The output's shape and its symbolic dims: a replay for other values of their Variables sizes the
  // buffer it makes from them.
  Shape shape;
  std::vector<ExprRef> sym;
};
// While set, every kernel and copy that realize() runs is also appended here (null: none). Returns
// what was set before, for the caller to set back.
std::vector<Launch>* capture_launches(std::vector<Launch>* into);
// Records runs that did not come from a schedule (a replay): they become the last realization's runs.
void record_runs(std::vector<RunRecord> runs);
// Runs started on a device whose records wait for their times: `finish` waits for them and gives the
// records, which are recorded (record_runs) at the next settle_runs. Settles the runs deferred before.
void defer_runs(std::function<std::vector<RunRecord>()> finish);
// Records the deferred runs, waiting for them: called before anything that runs more work, reads the
// history or reads a buffer, so that the records stay in the order the work ran.
void settle_runs();

// Called with each record as soon as its item has run (DEBUG output prints from here).
void set_run_listener(std::function<void(const RunRecord&)> listener);

// The records since the process started (or since clear_history), in order.
const RunHistory& history();
const Realization& last_realization();
void clear_history();
double now_us();

}  // namespace tr
