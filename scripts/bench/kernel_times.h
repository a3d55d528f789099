#pragma once
// The benchmarks' timing of tinyrepl's side: each kernel that realizing a tensor schedules, lowered
// with NOOPT, the default opts or BEAM=2's choice, and timed on fresh buffers of its sizes.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "core/base/context.h"
#include "core/runtime/device.h"
#include "core/opt/heuristic.h"
#include "core/opt/search.h"
#include "core/realize/realize.h"
#include "core/tensor/tensor.h"

namespace tr::bench {

enum class Opts { Noopt, Default, Beam };

// A kernel with opts slower than a second / kMinRuns still runs kMinRuns times (or `repeats`, if fewer):
// the 2048 matmul (90 ms) ran 11 times in its second on the shared 2-core VM, and between the runs of
// the CPU benchmark its rate against OpenBLAS's, interleaved with it, moved from 0.73 to 0.93 with
// unchanged opts. NOOPT, compared with nothing, keeps the second (its linear layer takes 40 s a run).
constexpr int kMinRuns = 30;
// Seconds that a kernel's runs may add up to before kMinRuns stops them.
constexpr double kWindow = 1.0;

// One kernel with the opts of `how`, timed on fresh buffers of its sizes: the fastest of up to
// `repeats` runs (fewer where they would add up to more than kWindow, but kMinRuns with opts), after the run that compiled it. `opts`
// receives the opts it ran with; `before_each` runs before each run (time_again); `ran` the record it
// ran as, its seconds the fastest.
inline double kernel_seconds(const KernelRecord& base, Opts how, int repeats, std::vector<Opt>* opts = nullptr,
                             const std::function<void()>& before_each = {}, KernelRecord* ran = nullptr) {
  Device& dev = device(base.device);
  const Kernel k = Kernel::from_ast(base.ast);
  std::vector<Opt> chosen;
  if (how == Opts::Default) chosen = default_opts(k, dev.target()).opts;
  if (how == Opts::Beam) chosen = beam_search(k, dev, *base.buffers, base.vars, 2).opts;
  if (opts) *opts = chosen;
  const KernelRecord rec = run_with_opts(base, chosen);
  const double first = time_again(rec, 1, before_each)[0];
  const int more = std::clamp(static_cast<int>(kWindow / first), how == Opts::Noopt ? 1 : std::min(kMinRuns, repeats), repeats);
  const std::vector<double> t = time_again(rec, more, before_each);
  const double fastest = std::min(first, *std::min_element(t.begin(), t.end()));
  if (ran) {
    *ran = rec;
    ran->seconds = fastest;
    ran->repeats.clear();
  }
  return fastest;
}

// The kernels that realizing make() schedules with the default opts, each timed with `how`'s; their
// sum. `kernels` receives how many there are, `opts` each one's name and opts, `ran` the record each
// ran as (kernel_seconds); `before_each` runs before each run of each.
inline double seconds(const std::function<Tensor()>& make, Opts how, int repeats, int* kernels = nullptr,
                      std::vector<std::string>* opts = nullptr, const std::function<void()>& before_each = {},
                      std::vector<KernelRecord>* ran = nullptr) {
  settings().noopt = false;
  settings().beam = 0;
  make().realize();
  std::vector<KernelRecord> ks;
  for (const RunRecord& r : last_realization().runs)
    if (!r.is_copy) ks.push_back(r.kernel);
  if (kernels) *kernels = static_cast<int>(ks.size());
  double s = 0;
  for (const KernelRecord& k : ks) {
    std::vector<Opt> used;
    KernelRecord record;
    s += kernel_seconds(k, how, repeats, &used, before_each, &record);
    if (ran) ran->push_back(record);
    if (!opts) continue;
    std::string text = k.name + ":";
    for (const Opt& o : used) text += " " + o.str();
    opts->push_back(text);
  }
  return s;
}

}  // namespace tr::bench
