// GPU benchmark, our side: the rows of the GPU issue's table on one device (CUDA unless named), each
// with NOOPT, the default opts and BEAM=2, kernel times summed over the kernels a row schedules.
// Prints one JSON object per row, with each kernel's opts and each default kernel on the device's
// roofline (its peaks measured at the start of the run, as `:roofline measure` does); scripts/bench/gpu
// puts PyTorch's figures for the same work beside them, measured in the same run.
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/context.h"
#include "core/tensor/tensor.h"
#include "devices/registry.h"
#include "scripts/bench/kernel_times.h"
#include "viz/peaks.h"
#include "viz/roofline.h"

namespace {

using tr::Tensor;
using tr::bench::Opts;
constexpr int kRepeats = 10;

struct Row {
  std::string work;
  const char* unit;  // "GB/s" or "GFLOPS"
  double amount;     // bytes a kernel must move, or flops
  std::function<Tensor()> make;
};

void report(const Row& r, bool beam, const tr::DevicePeaks& peaks) {
  int kernels = 0;
  std::vector<std::string> default_opts, beam_opts;
  std::vector<tr::KernelRecord> ran;
  const double noopt = tr::bench::seconds(r.make, Opts::Noopt, kRepeats);
  const double def = tr::bench::seconds(r.make, Opts::Default, kRepeats, &kernels, &default_opts, {}, &ran);
  nlohmann::json roofline = nlohmann::json::array();
  for (size_t k = 0; k < ran.size(); k++) {
    const tr::RooflinePoint p = tr::place(tr::kernel_figures(static_cast<int>(k), ran[k]), peaks);
    roofline.push_back({{"kernel", ran[k].name}, {"intensity", p.intensity}, {"gflops", p.flops_per_s / 1e9},
                        {"gbs", p.bytes_per_s / 1e9}, {"percent", p.percent.value_or(-1)},
                        {"bound", tr::bound_name(p.bound)}, {"note", p.note}});
  }
  nlohmann::json row{{"work", r.work}, {"unit", r.unit}, {"kernels", kernels}, {"noopt", r.amount / noopt / 1e9},
                     {"default", r.amount / def / 1e9}, {"default_opts", default_opts}, {"roofline", roofline}};
  if (beam) {
    const double b = tr::bench::seconds(r.make, Opts::Beam, kRepeats, nullptr, &beam_opts);
    row["beam"] = r.amount / b / 1e9;
    row["beam_opts"] = beam_opts;
  }
  std::printf("%s\n", row.dump().c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  tr::register_devices();
  const std::string dev = argc > 1 ? argv[1] : "CUDA";
  const bool beam = !(argc > 2 && std::string(argv[2]) == "--no-beam");
  tr::settings().device = dev;
  const int64_t n = int64_t{64} << 20, side = 8192, m = 4096;
  Tensor x = Tensor::rand({n}, 1), y = Tensor::rand({n}, 2);
  Tensor p = Tensor::rand({m, m}, 3), q = Tensor::rand({m, m}, 4), bias = Tensor::rand({m}, 5);
  for (Tensor* t : {&x, &y, &p, &q, &bias}) t->realize();
  const Tensor sq = x.reshape({side, side});
  const Tensor ph = p.cast(tr::DType::Float16).contiguous(), qh = q.cast(tr::DType::Float16).contiguous();
  const Tensor pb = p.cast(tr::DType::BFloat16).contiguous(), qb = q.cast(tr::DType::BFloat16).contiguous();
  for (Tensor t : {ph, qh, pb, qb}) t.realize();
  const auto c = [&](double v) { return Tensor::scalar_like(x, v); };
  const double flops = 2.0 * m * m * m;
  const std::vector<Row> rows{
      {"add 64M f32", "GB/s", 12.0 * n, [&] { return x.add(y); }},
      {"(x*2+1).exp().relu()*y 64M", "GB/s", 12.0 * n, [&] { return x.mul(c(2)).add(c(1)).exp().relu().mul(y); }},
      {"sum 64M f32", "GB/s", 4.0 * n, [&] { return x.sum(); }},
      {"sum over rows 8192x8192", "GB/s", 4.0 * n, [&] { return sq.sum(std::vector<int>{1}); }},
      {"sum over columns 8192x8192", "GB/s", 4.0 * n, [&] { return sq.sum(std::vector<int>{0}); }},
      {"softmax 8192x8192", "GB/s", 8.0 * n, [&] { return sq.softmax(1); }},
      {"x.T.contiguous() 8192x8192", "GB/s", 8.0 * n, [&] { return sq.T().contiguous(); }},
      {"matmul 4096 f32", "GFLOPS", flops, [&] { return p.matmul(q); }},
      {"matmul 4096 f16", "GFLOPS", flops, [&] { return ph.matmul(qh); }},
      {"matmul 4096 bf16", "GFLOPS", flops, [&] { return pb.matmul(qb); }},
      {"(a @ w + b).relu() 4096 f32", "GFLOPS", flops, [&] { return p.matmul(q).add(bias).relu(); }},
  };
  const tr::DevicePeaks peaks = tr::measure_peaks(tr::device(dev));
  std::printf("%s\n", nlohmann::json{{"peaks", tr::peaks_table(peaks, "")}}.dump().c_str());
  for (const Row& r : rows) report(r, beam, peaks);
  return 0;
}
