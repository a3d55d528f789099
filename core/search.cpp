#include "core/search.h"

#include <algorithm>
#include <limits>
#include <set>

#include "core/error.h"
#include "core/codegen/codegen.h"
#include "core/render/render.h"

namespace tr {

double time_program(Device& dev, const UOpProgram& program, const std::string& source,
                    const std::vector<std::pair<DType, int64_t>>& buffers, bool& cached) {
  std::vector<BufferRef> owned;
  std::vector<const Buffer*> bufs;
  for (const auto& [t, n] : buffers) {
    owned.push_back(dev.alloc(t, n));
    const std::vector<std::byte> zeros(owned.back()->nbytes());
    dev.copyin(*owned.back(), zeros.data());
    bufs.push_back(owned.back().get());
  }
  const std::unique_ptr<Program> p = dev.compile(program, source, cached);
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; i++) best = std::min(best, p->run(bufs, program.dims));
  return best;
}

namespace {

// Every kernel one opt away from k that the device can run.
std::vector<Kernel> neighbours(const Kernel& k, const Target& target) {
  std::vector<Kernel> out;
  std::vector<OptOp> ops{OptOp::Upcast, OptOp::Unroll};
  if (target.gpu && target.local_memory) ops.push_back(OptOp::Local);
  if (!target.gpu && target.cores > 1) ops.push_back(OptOp::Thread);
  for (OptOp op : ops) {
    for (int d = 0; d < static_cast<int>(k.dims.size()); d++) {
      for (int64_t amt : {2, 3, 4, 8, 16}) {
        if (op == OptOp::Thread && amt != target.cores) continue;
        try {
          Kernel n = apply_opt(k, {op, d, amt});
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

Kernel beam_search(const Kernel& k, Device& dev, const std::vector<std::pair<DType, int64_t>>& buffers, int width) {
  const Target target = dev.target();
  auto time = [&](const Kernel& c) {
    const UOpProgram p = codegen(c, target, "beam_candidate");
    bool cached = false;
    return time_program(dev, p, render(dev.backend(), p), buffers, cached);
  };
  std::vector<std::pair<double, Kernel>> beam{{time(k), k}};
  Kernel best = k;
  double best_time = beam[0].first;
  for (int step = 0; step < 3; step++) {
    std::vector<std::pair<double, Kernel>> next;
    std::set<std::string> seen;
    for (const auto& [t, b] : beam)
      for (Kernel& c : neighbours(b, target)) {
        std::string key;
        for (const Opt& o : c.opts) key += o.str();
        if (!seen.insert(key).second) continue;
        next.emplace_back(time(c), std::move(c));
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
