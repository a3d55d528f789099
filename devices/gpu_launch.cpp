#include "devices/gpu_launch.h"

#include <algorithm>

namespace tr {

Grid grid_for(const LaunchDims& dims, bool local_ids, int64_t max_threads, const std::array<int64_t, 3>& max_per_axis) {
  if (local_ids) return Grid{dims.global, dims.local};
  Grid g;
  int64_t budget = max_threads;
  for (int a = 0; a < 3; a++) {
    int64_t t = std::min({dims.global[a], budget, max_per_axis[a]});
    while (t > 1 && dims.global[a] % t != 0) t--;
    g.threads[a] = std::max<int64_t>(t, 1);
    g.groups[a] = dims.global[a] / g.threads[a];
    budget /= g.threads[a];
  }
  return g;
}

}  // namespace tr
