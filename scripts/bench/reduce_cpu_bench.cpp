// Reductions on the CPU: a full sum, a row sum, a column sum and a softmax, each with NOOPT and the
// default opts, beside a multi-threaded C loop doing the same work in the same run. Prints GB/s
// (bytes read once, plus bytes written) and how many kernels each took.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <thread>
#include <vector>

#include "core/base/context.h"
#include "core/realize/realize.h"
#include "core/tensor/tensor.h"
#include "devices/registry.h"

namespace {

using tr::Tensor;
constexpr int kRepeats = 7;

struct Timed {
  double seconds = 1e30;
  int kernels = 0;
};

// The best of kRepeats realizations of make(): the sum of its kernels' times, and their count.
Timed tinyrepl(const std::function<Tensor()>& make, bool noopt) {
  tr::settings().noopt = noopt;
  Timed best;
  for (int i = 0; i < kRepeats; i++) {
    Tensor t = make();
    t.realize();
    double s = 0;
    int k = 0;
    for (const tr::RunRecord& r : tr::last_realization().runs)
      if (!r.is_copy) s += r.kernel.seconds, k++;
    best.seconds = std::min(best.seconds, s);
    best.kernels = k;
  }
  return best;
}

// body(lo, hi) over [0, n) split across every core, the best of kRepeats.
double c_loop(int64_t n, const std::function<void(int64_t, int64_t)>& body) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  double best = 1e30;
  for (int i = 0; i < kRepeats; i++) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> ts;
    for (int c = 0; c < cores; c++) ts.emplace_back([&, c] { body(n * c / cores, n * (c + 1) / cores); });
    for (auto& t : ts) t.join();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

void row(const char* what, double bytes, const std::function<Tensor()>& make, double ref_seconds) {
  const Timed noopt = tinyrepl(make, true), opt = tinyrepl(make, false);
  const double a = bytes / noopt.seconds / 1e9, b = bytes / opt.seconds / 1e9, r = bytes / ref_seconds / 1e9;
  std::printf("%-30s %7.2f (%d) %7.2f (%d) %8.2f   %5.2f\n", what, a, noopt.kernels, b, opt.kernels, r, b / r);
}

// The tensor's values, copied to the host for the C loops.
std::vector<float> floats(const Tensor& t) {
  const tr::HostData d = t.data();
  std::vector<float> out(t.numel());
  std::copy_n(reinterpret_cast<const float*>(d.bytes.data()), out.size(), out.data());
  return out;
}

}  // namespace

int main() {
  tr::register_devices();
  std::printf("%-30s %11s %11s %8s   %5s\n", "work (GB/s, kernels)", "NOOPT", "default", "C loop", "default/C");

  const int64_t n = 16 * 1024 * 1024;
  Tensor x = Tensor::rand({n}, 1);
  x.realize();
  const std::vector<float> xv = floats(x);
  const float* xs = xv.data();
  std::vector<double> partial(std::thread::hardware_concurrency());
  // the C loop keeps 8 partial sums, which the compiler turns into vector adds
  const double sum_ref = c_loop(n, [&](int64_t lo, int64_t hi) {
    float s[8] = {};
    for (int64_t i = lo; i + 8 <= hi; i += 8)
      for (int j = 0; j < 8; j++) s[j] += xs[i + j];
    partial[lo * partial.size() / n] = s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
  });
  row("sum 16M float32", 4.0 * n, [&] { return x.sum(); }, sum_ref);

  const int64_t m = 4096;
  Tensor sq = Tensor::rand({m, m}, 2);
  sq.realize();
  const std::vector<float> sv = floats(sq);
  const float* ss = sv.data();
  std::vector<float> out(m);
  const double rows_ref = c_loop(m, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; r++) {
      float s[8] = {};
      for (int64_t c = 0; c < m; c += 8)
        for (int j = 0; j < 8; j++) s[j] += ss[r * m + c + j];
      out[r] = s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
    }
  });
  row("row sum 4096x4096 float32", 4.0 * m * m + 4.0 * m, [&] { return sq.sum(std::vector<int>{1}); }, rows_ref);

  // columns: each thread adds whole rows into its slice of outputs, walking memory in order
  const double cols_ref = c_loop(m, [&](int64_t lo, int64_t hi) {
    std::fill(out.begin() + lo, out.begin() + hi, 0.0f);
    for (int64_t r = 0; r < m; r++)
      for (int64_t c = lo; c < hi; c++) out[c] += ss[r * m + c];
  });
  row("column sum 4096x4096 float32", 4.0 * m * m + 4.0 * m, [&] { return sq.sum(std::vector<int>{0}); }, cols_ref);

  const int64_t rows = 4096, cols = 1024;
  Tensor sm = Tensor::rand({rows, cols}, 3);
  sm.realize();
  const std::vector<float> smv = floats(sm);
  const float* smx = smv.data();
  std::vector<float> smo(rows * cols);
  const double softmax_ref = c_loop(rows, [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; r++) {
      const float* in = smx + r * cols;
      float* o = smo.data() + r * cols;
      const float mx = *std::max_element(in, in + cols);
      float s = 0;
      for (int64_t c = 0; c < cols; c++) s += (o[c] = std::exp(in[c] - mx));
      for (int64_t c = 0; c < cols; c++) o[c] /= s;
    }
  });
  row("softmax 4096x1024 float32", 8.0 * rows * cols, [&] { return sm.softmax(); }, softmax_ref);
  std::printf("(%u cores; every figure is the best of %d runs; the C loops use every core)\n",
              std::thread::hardware_concurrency(), kRepeats);
  return 0;
}
