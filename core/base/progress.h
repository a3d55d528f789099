#pragma once
// What long work is doing now, for a progress line: the realize loop reports each compile and run,
// BEAM each candidate. The plain REPL's bar on stderr and the TUI's status line read it from another
// thread while the work runs on its own.
#include <string>

namespace tr {

// BeamCompile: BEAM compiling its candidates, which takes most of a search now that a candidate far
// behind the best stops early; the bar names the search in both of its stages.
enum class Phase { Idle, Compile, BeamCompile, Beam, Run };

struct Progress {
  Phase phase = Phase::Idle;
  int at = 0;         // the item being worked on, from 0
  int total = 0;      // items of this phase
  std::string what;   // the kernel it is at
};

void report_progress(Phase phase, int at, int total, std::string what);
void end_progress();   // back to Idle
Progress progress();   // a copy, safe from any thread
// "compiling 3/13 r_64_64", "BEAM candidate 12/40 r_64_64, compiling", "BEAM candidate 12/40 r_64_64",
// "running kernel 2/5 E_4096"; "" when idle.
std::string progress_text(const Progress& p);

// Reports Idle when it goes out of scope, however the work ends.
class ProgressScope {
 public:
  ProgressScope() = default;
  ~ProgressScope() { end_progress(); }
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;
};

}  // namespace tr
