#pragma once
// The text of DEBUG=1..6 (SPEC section 4), built from run records as they arrive.
#include <string>
#include <vector>

#include "core/realize.h"

namespace tr {

// "*** CPU        3 r_2          mem  0.00 GB tm      5.62us/     0.06ms (     0.00 GFLOPS    0.0|0.0     GB/s)"
class DebugOutput {
 public:
  // What DEBUG=level prints for one record; `render` names the backends whose source DEBUG>=4 shows
  // (none: the device's own).
  std::string on_run(const RunRecord& r, int level, const std::vector<std::string>& render);
  // "scheduled N kernels in X ms" and the reasons (DEBUG>=1).
  std::string on_schedule(const Realization& r, int level) const;
  // "avg: ... GFLOPS ... GB/s   total: N kernels ... GOPS ... GB ... ms" (DEBUG>=2, at the end of a script).
  std::string summary(int level) const;

  int kernels() const { return kernels_; }
  double total_seconds() const { return seconds_; }
  int64_t total_flops() const { return flops_; }
  int64_t total_bytes() const { return bytes_; }

 private:
  int kernels_ = 0;
  int64_t flops_ = 0, bytes_ = 0;
  double seconds_ = 0;
  int64_t mem_ = 0;
};

// The DEBUG=2 line's time column: microseconds below 10 ms, else milliseconds.
std::string time_str(double seconds);

}  // namespace tr
