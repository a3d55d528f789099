// CPU benchmark: tinyrepl's kernels with NOOPT, the default opts and BEAM=2, next to references
// measured in the same run: the machine's bandwidth (a vectorized read loop and copy loop over every
// core, as STREAM counts bytes), OpenBLAS sgemm (loaded at run time, when it is installed) and numpy.
#include <dlfcn.h>
#include <sys/mman.h>
#ifdef __AVX512F__
#include <immintrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <functional>
#include <map>
#include <new>
#include <optional>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/base/context.h"
#include "core/runtime/device.h"
#include "core/realize/realize.h"
#include "core/tensor/tensor.h"
#include "devices/registry.h"
#include "scripts/bench/kernel_times.h"

namespace {

using tr::Tensor;
using tr::bench::Opts;
using tr::bench::seconds;
// Each kernel's figure is the fastest of up to kRepeats runs, fewer where they would take more than a
// second (kernel_times.h), and the loops at the start take the same rule: on the shared VM the
// machine's speed moved by a factor of 2 within a run, and with 5 runs two timings of the same row sum
// kernel in one run differed by 1.9 times.
constexpr int kRepeats = 200;
using tr::bench::kWindow;

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Seconds of one call of f.
double timed(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return since(t0);
}

// The best rate of up to kRepeats runs of `once` within kWindow seconds, after one that warms the memory
// it touches.
double best_rate(const std::function<double()>& once) {
  once();
  double best = 0, spent = 0;
  for (int i = 0; i < kRepeats && spent < kWindow; i++) {
    const auto t0 = std::chrono::steady_clock::now();
    best = std::max(best, once());
    spent += since(t0);
  }
  return best;
}

int cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

// body(lo, hi, core) over [0, n) split into one contiguous block per core.
void parallel(int64_t n, const std::function<void(int64_t, int64_t, int)>& body) {
  std::vector<std::thread> ts;
  for (int c = 0; c < cores(); c++) ts.emplace_back([&, c] { body(n * c / cores(), n * (c + 1) / cores(), c); });
  for (auto& t : ts) t.join();
}

// 64-byte vectors: the compiler (-march=native) spells them in the widest registers it has.
typedef float v16 __attribute__((vector_size(64)));

// Memory in huge pages where the kernel gives them, as the CPU device's large buffers are
// (devices/host_memory.cpp), so that the loops below and the kernels pay the same for their pages.
template <typename T>
struct HugePages {
  using value_type = T;
  static constexpr size_t kPage = size_t{2} << 20;
  HugePages() = default;
  template <typename U>
  explicit HugePages(const HugePages<U>&) {}
  T* allocate(size_t n) {
    const size_t bytes = (n * sizeof(T) + kPage - 1) / kPage * kPage;
    void* p = std::aligned_alloc(kPage, bytes);
    if (!p) throw std::bad_alloc();
    ::madvise(p, bytes, MADV_HUGEPAGE);
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t) { std::free(p); }
  bool operator==(const HugePages&) const = default;
};

// The machine's bandwidth over n floats, in GB/s as STREAM counts bytes, one run of a loop each. The
// buffers are written when made, so that their pages are touched, and kept for every later run.
class Bandwidth {
 public:
  explicit Bandwidth(int64_t floats) : a_(floats / 16, v16{} + 1.0f), b_(a_.size(), v16{}), sink_(cores()) {}

  // The read loop keeps four independent sums so that it waits on memory, not on its adds.
  double read() {
    const int64_t n = static_cast<int64_t>(a_.size());
    return bytes() / timed([&] {
      parallel(n, [&](int64_t lo, int64_t hi, int c) {
        v16 s0{}, s1{}, s2{}, s3{};
        int64_t i = lo;
        for (; i + 4 <= hi; i += 4) s0 += a_[i], s1 += a_[i + 1], s2 += a_[i + 2], s3 += a_[i + 3];
        for (; i < hi; i++) s0 += a_[i];
        const v16 sum = s0 + s1 + s2 + s3;
        sink_[c] = sum[0];
      });
    }) / 1e9;
  }

  double copy() {
    return 2 * bytes() / timed([&] {
      parallel(static_cast<int64_t>(a_.size()), [&](int64_t lo, int64_t hi, int) {
        for (int64_t i = lo; i < hi; i++) b_[i] = a_[i];
      });
    }) / 1e9;
  }

  // The copy loop with non-temporal stores of whole lines, as a kernel's stores stream past the cache
  // where its output outgrows it (core/codegen/expand.cpp): without reading each line before writing
  // it. 0 where the compiler has no such store of a line (AVX-512's).
  double streaming_copy() {
#ifdef __AVX512F__
    return 2 * bytes() / timed([&] {
      parallel(static_cast<int64_t>(a_.size()), [&](int64_t lo, int64_t hi, int) {
        for (int64_t i = lo; i < hi; i++) _mm512_stream_ps(reinterpret_cast<float*>(&b_[i]), static_cast<__m512>(a_[i]));
        _mm_sfence();
      });
    }) / 1e9;
#else
    return 0;
#endif
  }

 private:
  double bytes() const { return static_cast<double>(a_.size() * sizeof(v16)); }
  std::vector<v16, HugePages<v16>> a_, b_;
  std::vector<float> sink_;
};

// OpenBLAS's cblas_sgemm, opened at run time so that the benchmark runs (and says so) without it.
using Sgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);
Sgemm open_sgemm() {
  // OpenBLAS's threads spin for 2^28 cycles after a call before they sleep, and would take the cores
  // from the kernel timed right after it: 2^4 lets them sleep at once (read when the library loads).
  ::setenv("OPENBLAS_THREAD_TIMEOUT", "4", 0);
  for (const char* lib : {"libopenblas.so.0", "libopenblas.so"})
    if (void* h = dlopen(lib, RTLD_NOW)) return reinterpret_cast<Sgemm>(dlsym(h, "cblas_sgemm"));
  return nullptr;
}

// `batches` sgemms of m x k by k x n, in GFLOPS; 0 without OpenBLAS.
class SgemmRate {
 public:
  SgemmRate(Sgemm sgemm, int m, int k, int n, int batches = 1)
      : sgemm_(sgemm), m_(m), k_(k), n_(n), batches_(batches), a_(size_t(batches) * m * k, 1.0f),
        b_(size_t(batches) * k * n, 0.5f), c_(size_t(batches) * m * n) {}
  double operator()() {
    if (!sgemm_) return 0;
    constexpr int kRowMajor = 101, kNoTrans = 111;
    const size_t ma = size_t(m_) * k_, mb = size_t(k_) * n_, mc = size_t(m_) * n_;
    const double s = timed([&] {
      for (size_t i = 0; i < size_t(batches_); i++)
        sgemm_(kRowMajor, kNoTrans, kNoTrans, m_, n_, k_, 1.0f, &a_[i * ma], k_, &b_[i * mb], n_, 0.0f, &c_[i * mc], n_);
    });
    return 2.0 * m_ * k_ * n_ * batches_ / s / 1e9;
  }

 private:
  Sgemm sgemm_;
  int m_, k_, n_, batches_;
  std::vector<float> a_, b_, c_;
};

// numpy's seconds per row, from scripts/bench/cpu_numpy.py; empty without python3 or numpy.
std::map<std::string, double> numpy_seconds() {
  std::map<std::string, double> out;
  const std::string cmd = fmt::format("python3 {}/cpu_numpy.py {} {} {} 2>/dev/null", TINYREPL_BENCH_DIR, kRepeats,
                                      tr::bench::kMinRuns, kWindow);
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char key[64];
  double s = 0;
  while (std::fscanf(p, "%63s %lf", key, &s) == 2) out[key] = s;
  pclose(p);
  return out;
}

struct Row {
  std::string name;
  const char* unit;  // "GB/s" or "GFLOPS"
  double amount;     // bytes moved or flops done
  std::function<Tensor()> make;
  const char* ref_name;
  std::function<double()> ref_rate;  // the reference's rate in `unit` in one run, now; 0 when absent
  std::string numpy_key;
};

// One run of the reference comes before each run of the default opts' kernels and of BEAM's, and the
// fastest of each is kept: on a shared VM the machine's speed drifts within a run (the same kernel
// measured seconds apart: 44 and 81 GB/s, and 54 and 35 GB/s by the default and BEAM=2 columns when
// both chose the same opts), and so each side is compared with the reference runs that met its own
// moments. `opts` receives each kernel's default opts and BEAM's, a line each.
void print_row(const Row& r, const std::map<std::string, double>& numpy, bool beam_too, std::vector<std::string>& opts) {
  int kernels = 0;
  std::vector<std::string> def_opts, beam_opts;
  double def_ref = 0, beam_ref = 0;
  const auto reference = [&r](double& best) { return [&r, &best] { best = std::max(best, r.ref_rate()); }; };
  const auto rate = [&r](Opts how, int* k, std::vector<std::string>* names, const std::function<void()>& before_each) {
    return r.amount / seconds(r.make, how, kRepeats, k, names, before_each) / 1e9;
  };
  const double noopt = rate(Opts::Noopt, &kernels, nullptr, {});
  const double def = rate(Opts::Default, nullptr, &def_opts, reference(def_ref));
  const std::optional<double> beam =
      beam_too ? std::optional(rate(Opts::Beam, nullptr, &beam_opts, reference(beam_ref))) : std::nullopt;
  for (size_t i = 0; i < def_opts.size(); i++)
    opts.push_back(fmt::format("{:<26} default {}{}", r.name, def_opts[i],
                               i < beam_opts.size() ? fmt::format("\n{:<26} BEAM=2  {}", "", beam_opts[i]) : ""));
  const auto ratio = [&](std::optional<double> v, double ref) {
    char buf[16];
    if (!v || ref <= 0) return std::string("    -");
    std::snprintf(buf, sizeof buf, "%5.2f", *v / ref);
    return std::string(buf);
  };
  char beam_s[16] = "        -";
  if (beam) std::snprintf(beam_s, sizeof beam_s, "%9.1f", *beam);
  const auto np = numpy.find(r.numpy_key);
  const double np_rate = np == numpy.end() ? 0 : r.amount / np->second / 1e9;
  char ref_s[16] = "   absent", np_s[16] = "        -";
  if (def_ref > 0) std::snprintf(ref_s, sizeof ref_s, "%9.1f", def_ref);
  if (np_rate > 0) std::snprintf(np_s, sizeof np_s, "%9.1f", np_rate);
  std::printf("%-26s %-6s %2d %9.1f %9.1f %s  %-10s %s  %s %s  %s  %s\n", r.name.c_str(), r.unit, kernels, noopt, def,
              beam_s, r.ref_name, ref_s, ratio(def, def_ref).c_str(), ratio(beam, beam_ref).c_str(), np_s,
              ratio(def, np_rate).c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool beam = true;
  std::regex only("");  // --rows REGEX: the rows whose name it finds
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--no-beam") beam = false;
    if (a == "--rows" && i + 1 < argc) only = std::regex(argv[++i]);
  }
  tr::register_devices();
  const tr::Target target = tr::device("CPU").target();
  std::printf("CPU device:\n%s", target.str().c_str());
  // under TINYREPL_ISA=avx2 the references take the same instruction set: OpenBLAS's (numpy's too, both
  // built for every x86 core) Haswell kernels, not the AVX-512 ones of the machine at hand
  if (target.isa == tr::Isa::Avx2) ::setenv("OPENBLAS_CORETYPE", "Haswell", 0);
  const auto numpy = numpy_seconds();
  const Sgemm sgemm = open_sgemm();

  const int64_t n = 16 * 1024 * 1024;
  Bandwidth bw(n);
  const auto read = [&bw] { return bw.read(); };
  const auto copy = [&bw] { return bw.copy(); };
  std::printf("bandwidth over %d cores at the start: read %.1f GB/s, copy %.1f GB/s (STREAM's bytes)\n", cores(),
              best_rate(read), best_rate(copy));
  if (const double streaming = best_rate([&bw] { return bw.streaming_copy(); }); streaming > 0)
    std::printf("copy with non-temporal stores (no line read before it is written): %.1f GB/s\n", streaming);
  std::printf("OpenBLAS: %s; numpy: %s\n", sgemm ? "libopenblas" : "absent (install libopenblas0: no sgemm reference)",
              numpy.empty() ? "absent (python3 with numpy: no numpy column)" : "present");
  SgemmRate sgemm1024(sgemm, 1024, 1024, 1024), sgemm2048(sgemm, 2048, 2048, 2048), sgemm512(sgemm, 512, 1024, 1024),
      sgemm_tall(sgemm, 100352, 576, 64), sgemm_batched(sgemm, 256, 256, 256, 32);
  const auto gflops = [](SgemmRate& rate) { return [&rate] { return rate(); }; };

  Tensor x = Tensor::rand({n}, 1), y = Tensor::rand({n}, 2);
  const Tensor m = x.reshape({4096, 4096}), s = x.shrink({tr::Range{0, 4096 * 1024}}).reshape({4096, 1024});
  Tensor p1 = Tensor::rand({1024, 1024}, 3), q1 = Tensor::rand({1024, 1024}, 4), bias = Tensor::rand({1024}, 5);
  Tensor p2 = Tensor::rand({2048, 2048}, 6), q2 = Tensor::rand({2048, 2048}, 7), bias2 = Tensor::rand({2048}, 8);
  Tensor l512 = Tensor::rand({512, 1024}, 9), tall = Tensor::rand({100352, 576}, 10), skinny = Tensor::rand({576, 64}, 11);
  Tensor ba = Tensor::rand({32, 256, 256}, 12), bb = Tensor::rand({32, 256, 256}, 13);
  Tensor h1 = p1.cast(tr::DType::BFloat16), h2 = q1.cast(tr::DType::BFloat16);
  for (Tensor* t : {&x, &y, &p1, &q1, &bias, &p2, &q2, &bias2, &l512, &tall, &skinny, &ba, &bb, &h1, &h2}) t->realize();
  const auto c = [&](double v) { return Tensor::scalar_like(x, v); };
  const std::vector<Row> rows{
      {"add 16M", "GB/s", 12.0 * n, [&] { return x.add(y); }, "copy", copy, "add"},
      {"chain exp(x*y+1)*x 16M", "GB/s", 12.0 * n, [&] { return x.mul(y).add(c(1)).exp().mul(x); }, "copy", copy,
       "chain"},
      {"sum 16M", "GB/s", 4.0 * n, [&] { return x.sum(); }, "read", read, "sum"},
      {"row sum 4096x4096", "GB/s", 4.0 * n, [&] { return m.sum(std::vector<int>{1}); }, "read", read, "rowsum"},
      {"column sum 4096x4096", "GB/s", 4.0 * n, [&] { return m.sum(std::vector<int>{0}); }, "read", read, "colsum"},
      {"softmax 4096x1024", "GB/s", 8.0 * 4096 * 1024, [&] { return s.softmax(1); }, "copy", copy, "softmax"},
      {"transpose 4096x4096", "GB/s", 8.0 * n, [&] { return m.T().contiguous(); }, "copy", copy, "transpose"},
      {"matmul 1024", "GFLOPS", 2.0 * 1024 * 1024 * 1024, [&] { return p1.matmul(q1); }, "sgemm", gflops(sgemm1024),
       "matmul1024"},
      {"matmul 2048", "GFLOPS", 2.0 * 2048 * 2048 * 2048, [&] { return p2.matmul(q2); }, "sgemm", gflops(sgemm2048),
       "matmul2048"},
      {"linear+relu 1024", "GFLOPS", 2.0 * 1024 * 1024 * 1024, [&] { return p1.matmul(q1).add(bias).relu(); }, "sgemm",
       gflops(sgemm1024), "linear1024"},
      {"linear+relu 2048", "GFLOPS", 2.0 * 2048 * 2048 * 2048, [&] { return p2.matmul(q2).add(bias2).relu(); }, "sgemm",
       gflops(sgemm2048), "linear2048"},
      {"linear+relu 512x1024x1024", "GFLOPS", 2.0 * 512 * 1024 * 1024, [&] { return l512.matmul(q1).add(bias).relu(); },
       "sgemm", gflops(sgemm512), "linear512"},
      {"tall-skinny 100352x576x64", "GFLOPS", 2.0 * 100352 * 576 * 64, [&] { return tall.matmul(skinny); }, "sgemm",
       gflops(sgemm_tall), "tallskinny"},
      {"batched 32x256x256x256", "GFLOPS", 2.0 * 32 * 256 * 256 * 256, [&] { return ba.matmul(bb); }, "sgemm",
       gflops(sgemm_batched), "batched"},
      // against float32 sgemm: numpy and OpenBLAS have no bfloat16 matmul
      {"bf16 matmul 1024", "GFLOPS", 2.0 * 1024 * 1024 * 1024, [&] { return h1.matmul(h2); }, "sgemm f32",
       gflops(sgemm1024), "matmul1024"},
  };
  std::printf("\n%-26s %-6s %2s %9s %9s %9s  %-10s %9s  %5s %5s  %9s  %5s\n", "work", "unit", "k", "NOOPT", "default",
              "BEAM=2", "reference", "ref", "d/ref", "B/ref", "numpy", "d/np");
  std::vector<std::string> opts;
  for (const Row& r : rows)
    if (std::regex_search(r.name, only)) print_row(r, numpy, beam, opts);
  if (const auto torch = numpy.find("torch_bf16_matmul1024"); torch != numpy.end())
    std::printf("\nPyTorch's CPU bfloat16 matmul 1024: %.1f GFLOPS\n", 2.0 * 1024 * 1024 * 1024 / torch->second / 1e9);
  else
    std::printf("\nPyTorch: absent (no bfloat16 matmul reference; pip install torch for one)\n");
  std::printf("\nk: kernels per row. Each figure is the fastest of up to %d runs of each kernel within a second (but 30 with opts) after a warm-up run, "
              "on buffers touched before, one run of the reference before each run of the default and BEAM=2 kernels; rates count the bytes a kernel must move (STREAM's way) or 2*n^3 flops.\n"
              "ref: the reference's best in the runs between the default kernel's. d/ref, B/ref: default and BEAM=2 each against the reference's best in the runs between its own; d/np: default against numpy. BEAM=2's "
              "choices are kept in the disk cache, so a second run searches nothing; --no-beam leaves its column out, --rows REGEX keeps "
              "the rows whose name it finds.\n",
              kRepeats);
  std::printf("\nEach kernel's opts:\n%s\n", fmt::format("{}", fmt::join(opts, "\n")).c_str());
  return 0;
}
