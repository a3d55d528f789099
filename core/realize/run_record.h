#pragma once
// What one kernel or copy run leaves: DEBUG output, --json, the trace and the Timings pane read it.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/kernel/kernel.h"
#include "core/ir/uops.h"

namespace tr {

struct KernelRecord {
  std::string name;
  std::string device;
  AstRef ast;     // as scheduled, before opts (PADTO pads the trackers of kernel.ast)
  // What lowering made, never changed after: every copy of the record (a replay's, the history's, the
  // panes') shares one, so recording a run costs no copy of its kernel, its UOps or its source.
  std::shared_ptr<const Kernel> kernel;
  std::shared_ptr<const UOpProgram> program;
  std::shared_ptr<const std::string> source;  // rendered for the device's backend
  std::shared_ptr<const std::string> reason;  // why the scheduler ended this kernel where it did
  std::shared_ptr<const std::vector<std::pair<DType, int64_t>>> buffers;  // dtype and size of each argument, output first
  std::vector<int32_t> vars;  // each Variable's value, in the program's argument order
  double seconds = 0;
  std::vector<double> repeats;  // the seconds of each run after the first (--repeat N, :time K N)
  bool cached = false;  // the compiled program came from the on-disk cache
};

struct CopyRecord {
  int64_t bytes = 0;
  std::string from, to;
  double seconds = 0;
};

struct RunRecord {
  bool is_copy = false;
  bool replayed = false;  // launched by a jitted function's replay (core/jit), not from a schedule
  KernelRecord kernel{};
  CopyRecord copy{};
  double start_us = 0;  // since the process started: the trace's time axis
  // Which item of its realize's schedule it ran, as Realization::schedule numbers them: on several
  // devices items end in another order than the schedule's. -1 for a run that no schedule planned (a
  // read-back to the host, a @jit replay).
  int item = -1;
};

// Its time in seconds, kernel or copy.
inline double run_seconds(const RunRecord& r) { return r.is_copy ? r.copy.seconds : r.kernel.seconds; }

}  // namespace tr
