#include "core/jit/jit_batch.h"

#include <algorithm>
#include <chrono>

#include "core/base/context.h"
#include "core/base/interrupt.h"

namespace tr {
namespace {

double copy(const Launch& l, const std::vector<const Buffer*>& bufs) {
  const auto t0 = std::chrono::steady_clock::now();
  Device& dst = device(bufs[0]->device);
  if (l.host) {
    dst.copyin(*bufs[0], l.host->bytes.data());
  } else {
    std::vector<std::byte> staging(bufs[1]->nbytes());
    device(bufs[1]->device).copyout(staging.data(), *bufs[1]);
    dst.copyin(*bufs[0], staging.data());
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

std::vector<GraphSegment> plan_graphs(const std::vector<Launch>& launches) {
  std::vector<GraphSegment> out;
  if (settings().jit == 2) return out;
  for (size_t first = 0; first < launches.size();) {
    size_t end = first;
    std::vector<Program*> programs;
    while (end < launches.size() && launches[end].program &&
           launches[end].record.kernel.device == launches[first].record.kernel.device)
      programs.push_back(launches[end++].program.get());
    if (programs.size() >= 2)
      if (std::unique_ptr<LaunchGraph> g = device(launches[first].record.kernel.device).graph(programs))
        out.push_back(GraphSegment{first, end, std::move(g)});
    first = std::max(end, first + 1);
  }
  return out;
}

std::function<std::vector<double>()> start_batch(const JitBatch& batch, const std::vector<const Buffer*>& slot_buffers,
                                                 const std::vector<std::vector<int32_t>>& vars) {
  std::vector<std::vector<const Buffer*>> bound(batch.launches.size());
  for (size_t i = 0; i < bound.size(); i++) {
    bound[i].reserve(batch.args[i].size());
    for (const size_t slot : batch.args[i]) bound[i].push_back(slot_buffers[slot]);
  }
  // every kernel is queued before the first is waited for; a copy waits for the kernels before it
  std::vector<PendingRun> alone(bound.size());  // the launches started on their own
  std::vector<std::pair<size_t, std::function<std::vector<double>()>>> graphs;  // each graph's first launch
  auto segment = batch.graphs.begin();
  for (size_t i = 0; i < bound.size();) {
    // one load of a flag: Ctrl-C stops a long replay between launches
    check_interrupt();
    if (segment != batch.graphs.end() && segment->first == i) {
      std::vector<GraphLaunch> launches;
      for (; i < segment->end; i++)
        launches.push_back(GraphLaunch{batch.launches[i].program.get(), std::move(bound[i]),
                                       &batch.launches[i].record.kernel.program->dims, vars[i]});
      graphs.emplace_back(segment->first, segment->graph->start(launches));
      ++segment;
      continue;
    }
    const Launch& l = batch.launches[i];
    if (l.program) {
      alone[i] = l.program->start(bound[i], l.record.kernel.program->dims, vars[i]);
    } else {
      alone[i] = [seconds = copy(l, bound[i])] { return seconds; };
    }
    i++;
  }
  return [alone = std::move(alone), graphs = std::move(graphs)] {
    std::vector<double> seconds(alone.size());
    for (size_t i = 0; i < alone.size(); i++)
      if (alone[i]) seconds[i] = alone[i]();
    for (const auto& [first, wait] : graphs) {
      const std::vector<double> each = wait();
      std::copy(each.begin(), each.end(), seconds.begin() + static_cast<std::ptrdiff_t>(first));
    }
    return seconds;
  };
}

}  // namespace tr
