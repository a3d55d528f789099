#pragma once
// The text of DEBUG=1..6 (SPEC section 4), built from run records as they arrive.
#include <set>
#include <string>
#include <vector>

#include "core/realize/realize.h"

namespace tr {

// One line per kernel and copy, numbered in one sequence as tinygrad counts them:
// "*** CPU        3 r_2                                       arg  3 mem  0.00 GB tm      5.62us/     0.06ms (     0.00 GFLOPS    0.0|0.0     GB/s)"
class DebugOutput {
 public:
  // color: ANSI colours as tinygrad's (a kernel's first run green, copies yellow, each dim of a kernel's
  // name in its role's colour), for a terminal
  explicit DebugOutput(bool color = false) : color_(color) {}

  // What DEBUG=level prints for one record; `render` names the backends whose source DEBUG>=4 shows
  // (none: the device's own). The first record on a device says "opened device X from pid:N" first.
  std::string on_run(const RunRecord& r, int level, const std::vector<std::string>& render);
  // "scheduled N kernels in X ms" and the reasons (DEBUG>=1).
  std::string on_schedule(const Realization& r, int level) const;
  // "avg: ... GFLOPS ... GB/s   total: N kernels ... GOPS ... GB ... ms" (DEBUG>=2, at the end of a
  // script); N counts every numbered line, copies included, as tinygrad's kernel count does.
  std::string summary(int level) const;

 private:
  // shown: the name as printed (coloured or not); name: the same without colours, for the padding
  std::string line(const std::string& device, const std::string& name, const std::string& shown, bool first_run,
                   size_t args, double seconds, int64_t flops, int64_t bytes) const;

  bool color_;
  int count_ = 0;
  int64_t flops_ = 0, bytes_ = 0;
  double seconds_ = 0;
  int64_t mem_ = 0;
  std::set<std::string> opened_;
};

// The DEBUG=2 line's time column: microseconds below 10 ms, else milliseconds.
std::string time_str(double seconds);

}  // namespace tr
