// CPU benchmark: tinyrepl's kernels against references measured in the same run — a plain C loop
// for memory-bound work, OpenBLAS sgemm for matmul — with NOOPT and with the default opts.
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>
#include <vector>

#include "core/context.h"
#include "core/realize.h"
#include "core/tensor.h"
#include "devices/registry.h"

namespace {

using tr::Tensor;
constexpr int kRepeats = 7;

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Total kernel time of realizing make() (copies and scheduling excluded: the loops have none).
double kernel_seconds(const std::function<Tensor()>& make, bool noopt) {
  tr::settings().noopt = noopt;
  Tensor t = make();
  t.realize();
  double s = 0;
  for (const tr::RunRecord& r : tr::last_realization().runs)
    if (!r.is_copy) s += r.kernel.seconds;
  return s;
}

struct Best {
  double noopt = 1e30, opt = 1e30, ref = 1e30;
};

// Rounds of (NOOPT, default, reference), interleaved so that all three see the same machine.
Best measure(const std::function<Tensor()>& make, const std::function<void()>& reference) {
  Best b;
  for (int i = 0; i < kRepeats; i++) {
    b.noopt = std::min(b.noopt, kernel_seconds(make, true));
    b.opt = std::min(b.opt, kernel_seconds(make, false));
    const auto t0 = std::chrono::steady_clock::now();
    reference();
    b.ref = std::min(b.ref, since(t0));
  }
  return b;
}

// The reference loop, split over the same number of cores as the CPU device's THREAD opt.
void parallel(int64_t n, const std::function<void(int64_t, int64_t)>& body) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> ts;
  for (int c = 0; c < cores; c++) ts.emplace_back([&, c] { body(n * c / cores, n * (c + 1) / cores); });
  for (auto& t : ts) t.join();
}

void row(const char* what, const char* unit, double amount, const Best& t, const char* ref_name, double floor) {
  const double a = amount / t.noopt / 1e9, b = amount / t.opt / 1e9, r = amount / t.ref / 1e9;
  std::printf("%-28s %9.2f %9.2f %9.2f %-6s %-15s %5.2f  %5.2f   (floor %.2f: %s)\n", what, a, b, r, unit, ref_name,
              a / r, b / r, floor, b / r >= floor ? "met" : "NOT met");
}

}  // namespace

int main() {
  tr::register_devices();
  const int64_t n = 16 * 1024 * 1024;
  Tensor x = Tensor::rand({n}, 1), y = Tensor::rand({n}, 2);
  x.realize();
  y.realize();
  std::vector<float> a(n), b(n), c(n);
  std::copy_n(reinterpret_cast<const float*>(x.data().bytes.data()), n, a.data());
  std::copy_n(reinterpret_cast<const float*>(y.data().bytes.data()), n, b.data());
  std::printf("%-28s %9s %9s %9s %-6s %-15s %5s  %5s\n", "work", "NOOPT", "default", "ref", "unit", "reference",
              "NOOPT/ref", "default/ref");

  const Best add = measure([&] { return x.add(y); }, [&] {
    parallel(n, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; i++) c[i] = a[i] + b[i];
    });
  });
  row("add 16M float32", "GB/s", 3.0 * 4 * n, add, "C loop", 0.8);

  std::vector<float> partial(std::thread::hardware_concurrency());
  const Best sum = measure([&] { return x.sum(); }, [&] {
    parallel(n, [&](int64_t lo, int64_t hi) {
      float s = 0;
      for (int64_t i = lo; i < hi; i++) s += a[i];
      partial[lo * partial.size() / n] = s;
    });
  });
  row("sum 16M float32", "GB/s", 4.0 * n, sum, "C loop", 0.8);

  const int m = 1024;
  Tensor p = Tensor::rand({m, m}, 3), q = Tensor::rand({m, m}, 4);
  p.realize();
  q.realize();
  std::vector<float> pa(m * m, 1.0f), qa(m * m, 0.5f), ra(m * m);
  const Best gemm = measure([&] { return p.matmul(q); }, [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0f, pa.data(), m, qa.data(), m, 0.0f, ra.data(), m);
  });
  row("matmul 1024x1024 float32", "GFLOPS", 2.0 * m * m * m, gemm, "OpenBLAS sgemm", 0.25);
  std::printf("(%u cores; every figure is the best of %d runs; the C loops use every core)\n",
              std::thread::hardware_concurrency(), kRepeats);
  return 0;
}
