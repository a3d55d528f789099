#include "core/opt/search.h"

#include <algorithm>
#include <limits>
#include <set>

#include "core/error.h"
#include "core/codegen/codegen.h"
#include "core/interrupt.h"
#include "core/opt/apply_opt.h"
#include "core/opt/opt_table.h"
#include "core/progress.h"
#include "core/render/render.h"

namespace tr {

double time_program(Device& dev, const UOpProgram& program, const std::string& source,
                    const std::vector<std::pair<DType, int64_t>>& buffers, const std::vector<int32_t>& vars, bool& cached) {
  const std::vector<BufferRef> owned = zeroed_buffers(dev, buffers);
  const std::vector<const Buffer*> bufs = pointers(owned);
  const std::unique_ptr<Program> p = dev.compile(program, source, cached);
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; i++) best = std::min(best, p->run(bufs, program.dims, vars));
  return best;
}

namespace {

// Every kernel one opt away from k that the device can run: each opt of the table that the target
// has what it needs for, at each amount the table lists (THREAD: the target's cores).
std::vector<Kernel> neighbours(const Kernel& k, const Target& target) {
  std::vector<Kernel> out;
  for (const OptInfo& info : opt_table()) {
    if (!target_has(target, info.needs)) continue;
    const std::vector<int64_t> amounts = info.gives == DimRole::Thread ? std::vector<int64_t>{target.cores} : info.beam_amounts;
    for (int d = 0; d < static_cast<int>(k.dims.size()); d++) {
      for (const int64_t amt : amounts) {
        try {
          Kernel n = apply_opt(k, {info.op, d, amt}, target);
          int64_t unrolled = 1;
          for (const Dim& x : n.dims)
            if (x.role == DimRole::Upcast || x.role == DimRole::Unroll) unrolled *= x.size;
          if (unrolled <= 64) out.push_back(std::move(n));
        } catch (const Error&) {
          // this opt does not fit this kernel: not a candidate
        }
      }
    }
  }
  return out;
}

}  // namespace

Kernel beam_search(const Kernel& k, Device& dev, const std::vector<std::pair<DType, int64_t>>& buffers,
                   const std::vector<int32_t>& vars, int width) {
  const Target target = dev.target();
  auto time = [&](const Kernel& c) {
    check_interrupt();
    const UOpProgram p = codegen(c, target, "beam_candidate");
    bool cached = false;
    return time_program(dev, p, dev.render(p), buffers, vars, cached);
  };
  std::vector<std::pair<double, Kernel>> beam{{time(k), k}};
  Kernel best = k;
  double best_time = beam[0].first;
  for (int step = 0; step < 3; step++) {
    std::vector<Kernel> candidates;
    std::set<std::string> seen;
    for (const auto& [t, b] : beam)
      for (Kernel& c : neighbours(b, target)) {
        std::string key;
        for (const Opt& o : c.opts) key += o.str();
        if (seen.insert(key).second) candidates.push_back(std::move(c));
      }
    std::vector<std::pair<double, Kernel>> next;
    const int n = static_cast<int>(candidates.size());
    for (int i = 0; i < n; i++) {
      report_progress(Phase::Beam, i, n, fmt::format("{} (step {})", k.base_name(), step + 1));
      next.emplace_back(time(candidates[i]), std::move(candidates[i]));
    }
    if (next.empty()) break;
    std::sort(next.begin(), next.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (next.size() > static_cast<size_t>(width)) next.resize(width);
    if (next[0].first >= best_time) break;
    best_time = next[0].first;
    best = next[0].second;
    beam = std::move(next);
  }
  return best;
}

}  // namespace tr
