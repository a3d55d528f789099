#include "core/opt/search.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "core/codegen/codegen.h"
#include "core/runtime/compile_parallel.h"
#include "core/base/error.h"
#include "core/base/interrupt.h"
#include "core/opt/apply_opt.h"
#include "core/opt/beam_cache.h"
#include "core/opt/heuristic.h"
#include "core/opt/opt_table.h"
#include "core/opt/recipes/dims.h"
#include "core/base/progress.h"
#include "core/render/render.h"

namespace tr {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// The fastest of at least 3 runs, and of up to 10 while they add up to less than 20 ms, so that a
// short kernel is not judged by one noisy run. A run slower than `give_up` ends it there, and where
// the device can stop a kernel halfway (the CPU) the run itself stops at `give_up`: a candidate that
// far behind stays behind, and on a 2048 linear layer one near the kernel without opts runs for 40 s.
double fastest_run(Program& p, const std::vector<const Buffer*>& bufs, const LaunchDims& dims,
                   const std::vector<int32_t>& vars, double give_up = kNever) {
  double best = kNever, spent = 0;
  for (int i = 0; i < 10 && (i < 3 || spent < 0.02); i++) {
    const double t = p.run_within(bufs, dims, vars, give_up).value_or(give_up);
    best = std::min(best, t);
    spent += t;
    if (t >= give_up) break;
  }
  return best;
}

}  // namespace

double time_program(Device& dev, const UOpProgram& program, const std::string& source,
                    const std::vector<std::pair<DType, int64_t>>& buffers, const std::vector<int32_t>& vars, bool& cached) {
  const std::vector<BufferRef> owned = zeroed_buffers(dev, buffers);
  const std::unique_ptr<Program> p = dev.compile(program, source, cached);
  return fastest_run(*p, pointers(owned), program.dims, vars);
}

std::string beam_key(const Kernel& k, const Device& dev, const std::vector<std::pair<DType, int64_t>>& buffers,
                     const std::vector<int32_t>& vars, int width) {
  std::string key = fmt::format("BEAM {}\n{}\nvariables {}\nbuffers", width, dev.hardware(), fmt::join(vars, " "));
  for (const auto& [dtype, size] : buffers) key += fmt::format(" {}[{}]", name(dtype), size);
  return key + fmt::format("\nkernel {:016x}", k.ast->hash);
}

namespace {

// Every kernel one opt away from k that the device can run: each opt of the table that the target
// has what it needs for, at each amount the table lists (THREAD: the target's cores). Upcasts and
// unrolls stop at 64 values per thread, or at k's own (the default opts' tile may hold more).
std::vector<Kernel> neighbours(const Kernel& k, const Target& target) {
  const int64_t limit = std::max<int64_t>(64, upcast_product(k));
  std::vector<Kernel> out;
  for (const OptInfo& info : opt_table()) {
    if (!target_has(target, info.needs)) continue;
    const std::vector<int64_t> amounts = info.gives == DimRole::Thread ? std::vector<int64_t>{target.cores} : info.beam_amounts;
    for (int d = 0; d < static_cast<int>(k.dims.size()); d++) {
      for (const int64_t amt : amounts) {
        try {
          Kernel n = apply_opt(k, {info.op, d, amt}, target);
          if (upcast_product(n) <= limit) out.push_back(std::move(n));
        } catch (const Error&) {
          // this opt does not fit this kernel: not a candidate
        }
      }
    }
  }
  return out;
}

// k with these opts applied in order; nullopt when one does not fit (a kept choice that no longer does).
std::optional<Kernel> with_opts(const Kernel& k, const std::vector<Opt>& opts, const Target& target) {
  Kernel out = k;
  try {
    for (const Opt& o : opts) out = apply_opt(out, o, target);
  } catch (const Error&) {
    return std::nullopt;
  }
  return out;
}

// A candidate that does not compile or run (a launch the device refuses) is not one; an interrupt
// still ends the search.
void skip_unless_interrupt(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const Error& e) {
    if (is_interrupt(e)) throw;
  }
}

using Timed = std::vector<std::pair<double, Kernel>>;

// A candidate whose run takes this many times the best time known is not run again (tinygrad's
// BEAM stops at the same factor): the search keeps the fastest few, and noise is not a factor of 3.
constexpr double kFarBehind = 3;

// Each candidate's time, fastest first: all compiled at once on every core, then run one at a time
// on the same buffers, `rounds` times in turn (the fastest kept). `best_known` is the fastest time the
// search has seen before these candidates; with the fastest of them so far, it says when one is far behind.
Timed time_candidates(std::vector<Kernel> candidates, Device& dev, const std::vector<const Buffer*>& bufs,
                      const std::vector<int32_t>& vars, const std::string& what, double best_known = kNever,
                      int rounds = 1) {
  const Target target = dev.target();
  std::vector<UOpProgram> programs;
  std::vector<std::string> sources;
  std::vector<Kernel> lowered;
  programs.reserve(candidates.size());
  sources.reserve(candidates.size());
  for (Kernel& c : candidates) {
    try {
      LoweredKernel l = lower_kernel(c, target, [&](const UOpProgram& p) { return dev.render(p); }, "beam_candidate");
      sources.push_back(std::move(l.source));
      programs.push_back(std::move(l.program));
      lowered.push_back(std::move(c));
    } catch (...) {
      skip_unless_interrupt(std::current_exception());
    }
  }
  std::vector<CompileJob> jobs;
  for (size_t i = 0; i < programs.size(); i++) jobs.push_back({.device = &dev, .program = &programs[i], .source = &sources[i]});
  compile_each(jobs, Phase::BeamCompile, what);
  const int n = static_cast<int>(jobs.size());
  std::vector<double> fastest(jobs.size(), kNever);
  double best = best_known;
  for (int round = 0; round < rounds; round++)
    for (int i = 0; i < n; i++) {
      check_interrupt();
      report_progress(Phase::Beam, round * n + i, rounds * n, what);
      try {
        if (jobs[i].failure) std::rethrow_exception(jobs[i].failure);
        const double t = fastest_run(*jobs[i].result, bufs, programs[i].dims, vars, kFarBehind * best);
        fastest[i] = std::min(fastest[i], t);
        best = std::min(best, t);
      } catch (...) {
        jobs[i].failure = std::current_exception();
        skip_unless_interrupt(jobs[i].failure);
      }
    }
  Timed out;
  for (int i = 0; i < n; i++)
    if (!jobs[i].failure) out.emplace_back(fastest[i], std::move(lowered[i]));
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

std::string opts_key(const Kernel& k) {
  std::string key;
  for (const Opt& o : k.opts) key += o.str();
  return key;
}

// The search's choice against the default opts, both timed again in turn three times: the default
// stays unless the choice is more than 2% faster in the fastest of those runs. A run on a shared
// machine can be far off, and one fast run of a candidate during the search is not a reason to leave
// the default.
Kernel confirmed(const Kernel& best, const Kernel& defaults, Device& dev, const std::vector<const Buffer*>& bufs,
                 const std::vector<int32_t>& vars) {
  if (best.opts == defaults.opts) return best;
  double t_best = kNever, t_default = kNever;
  const Timed timed = time_candidates({best, defaults}, dev, bufs, vars, fmt::format("{} (check)", best.base_name()),
                                      kNever, 3);
  for (const auto& [t, c] : timed) {
    if (c.opts == best.opts) t_best = t;
    else t_default = t;
  }
  return t_best < 0.98 * t_default ? best : defaults;
}

// The search itself: the beam starts from the kernel without opts and with the default ones, so that
// it ends at least as fast as the default; each step adds one opt to every kernel of the beam and
// keeps the `width` fastest, while a step gains more than 1% (less is the timing's noise); the choice
// then has to beat the default opts again (confirmed).
Kernel search(const Kernel& k, Device& dev, const std::vector<std::pair<DType, int64_t>>& buffers,
              const std::vector<int32_t>& vars, int width) {
  const Target target = dev.target();
  const std::vector<BufferRef> owned = zeroed_buffers(dev, buffers);
  const std::vector<const Buffer*> bufs = pointers(owned);
  const Kernel defaults = default_opts(k, target);
  // the default opts first, so that the kernel without opts is judged against their time
  std::vector<Kernel> start{defaults};
  if (!defaults.opts.empty()) start.push_back(k);
  Timed beam = time_candidates(start, dev, bufs, vars, fmt::format("{} (start)", k.base_name()));
  if (beam.empty()) fail("opt", "BEAM: {} neither compiles nor runs on {} without opts or with the default ones",
                         k.base_name(), dev.name());
  std::set<std::string> seen;
  for (const auto& [t, b] : beam) seen.insert(opts_key(b));
  for (int step = 0; step < 3; step++) {
    std::vector<Kernel> candidates;
    for (const auto& [t, b] : beam)
      for (Kernel& c : neighbours(b, target))
        if (seen.insert(opts_key(c)).second) candidates.push_back(std::move(c));
    Timed next = time_candidates(std::move(candidates), dev, bufs, vars, fmt::format("{} (step {})", k.base_name(), step + 1),
                                 beam[0].first);
    if (next.empty() || next[0].first >= beam[0].first * 0.99) break;
    if (next.size() > static_cast<size_t>(width)) next.resize(static_cast<size_t>(width));
    beam = std::move(next);
  }
  return confirmed(beam[0].second, defaults, dev, bufs, vars);
}

}  // namespace

Kernel beam_search(const Kernel& k, Device& dev, const std::vector<std::pair<DType, int64_t>>& buffers,
                   const std::vector<int32_t>& vars, int width) {
  const std::string key = beam_key(k, dev, buffers, vars, width);
  if (const std::optional<std::vector<Opt>> kept = kept_opts(key))
    if (std::optional<Kernel> out = with_opts(k, *kept, dev.target())) return *out;
  Kernel best = search(k, dev, buffers, vars, width);
  keep_opts(key, best.opts);
  return best;
}

}  // namespace tr
