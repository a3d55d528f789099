// GPU benchmark, our side: a 64M-element float32 add (GB/s) and a 4096x4096 float32 matmul
// (GFLOPS) on one device, with NOOPT and with the default opts. Prints one JSON object per work
// item; scripts/bench/gpu puts PyTorch's figures for the same work beside them.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>

#include "core/context.h"
#include "core/realize.h"
#include "core/tensor.h"
#include "devices/registry.h"

namespace {

using tr::Tensor;

double best_kernel_seconds(const std::function<Tensor()>& make, bool noopt, int repeats) {
  tr::settings().noopt = noopt;
  double best = 1e30;
  for (int i = 0; i < repeats; i++) {
    Tensor t = make();
    t.realize();
    double s = 0;
    for (const tr::RunRecord& r : tr::last_realization().runs)
      if (!r.is_copy) s += r.kernel.seconds;
    best = std::min(best, s);
  }
  return best;
}

void report(const char* work, const char* unit, double amount, const std::function<Tensor()>& make, int repeats) {
  const double noopt = best_kernel_seconds(make, true, repeats);
  const double opt = best_kernel_seconds(make, false, repeats);
  std::printf("{\"work\": \"%s\", \"unit\": \"%s\", \"noopt\": %.3f, \"default\": %.3f, \"kernel\": \"%s\"}\n", work, unit,
              amount / noopt / 1e9, amount / opt / 1e9, tr::last_realization().runs.back().kernel.name.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  tr::register_devices();
  const std::string dev = argc > 1 ? argv[1] : "CUDA";
  tr::settings().device = dev;
  const int64_t n = int64_t{64} << 20;
  Tensor x = Tensor::rand({n}, 1), y = Tensor::rand({n}, 2);
  x.realize();
  y.realize();
  report("add 64M float32", "GB/s", 3.0 * 4 * n, [&] { return x.add(y); }, 10);
  const int64_t m = 4096;
  Tensor p = Tensor::rand({m, m}, 3), q = Tensor::rand({m, m}, 4);
  p.realize();
  q.realize();
  report("matmul 4096x4096 float32", "GFLOPS", 2.0 * m * m * m, [&] { return p.matmul(q); }, 3);
  return 0;
}
