// A device's peaks for the roofline: the benchmark kernels on every target, their measurement on this
// machine's CPU, the record the cache keeps, and the data sheets' tensor-core figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "core/codegen/codegen.h"
#include "core/render/render.h"
#include "core/runtime/device.h"
#include "tests/default_opts_testing.h"
#include "viz/data_sheets.h"
#include "viz/peak_benchmarks.h"
#include "viz/peaks.h"

namespace tr {
namespace {

using testing::default_opts_targets;

int count_opts(const Kernel& k, OptOp op) {
  return static_cast<int>(std::count_if(k.opts.begin(), k.opts.end(), [&](const Opt& o) { return o.op == op; }));
}

// A store in memory, as the disk cache keeps texts.
struct MemoryStore {
  std::map<std::string, std::string> texts;
  PeakStore store() {
    return {.find = [this](const std::string& key) -> std::optional<std::string> {
              const auto it = texts.find(key);
              return it == texts.end() ? std::nullopt : std::optional(it->second);
            },
            .keep = [this](const std::string& key, const std::string& text) { texts[key] = text; },
            .where = "memory"};
  }
};

TEST(Peaks, EveryTargetHasItsBenchmarksAndEveryBackendRendersThem) {
  for (const auto& [name, target] : default_opts_targets()) {
    std::vector<PeakBenchmark> benches{bandwidth_benchmark(target), launch_benchmark()};
    for (const DType d : measured_dtypes(target)) benches.push_back(compute_benchmark(target, d));
    for (const std::string& backend : backends()) {
      if (backend_info(backend).gpu != target.gpu) continue;
      for (const PeakBenchmark& b : benches) {
        try {
          const LoweredKernel l = lower_kernel(b.kernel, target, [&](const UOpProgram& p) { return render(backend, p); },
                                               b.kernel.base_name());
          EXPECT_FALSE(l.source.empty());
        } catch (const Error& e) {
          ADD_FAILURE() << name << ", " << backend << ", " << b.what << ": " << e.what();
        }
      }
    }
  }
}

TEST(Peaks, TheComputeBenchmarkKeepsIndependentChainsOfMultiplyAdds) {
  const Target avx512 = cpu_target(Isa::Avx512, 2, {.l1d = 32 << 10, .l2 = 1 << 20, .l3 = 32 << 20});
  const PeakBenchmark cpu = compute_benchmark(avx512, DType::Float32);
  EXPECT_EQ(count_opts(cpu.kernel, OptOp::Thread), 1);
  EXPECT_EQ(count_opts(cpu.kernel, OptOp::Upcast), 2);
  const UOpProgram p = codegen(cpu.kernel, avx512, "fma");
  const int chains = fma_chains(avx512);
  EXPECT_EQ(chains, 12);
  EXPECT_EQ(std::count_if(p.uops.begin(), p.uops.end(),
                          [](const UOp& u) { return u.kind == UOpKind::DefineAcc && u.vec == 16; }),
            chains);
  const int64_t m = cpu.buffers[0].second, r = cpu.buffers[2].second;
  EXPECT_EQ(m, 2 * 16 * chains);
  // a multiply-add a step per output, and the horizontal sums of nothing: each output is one lane
  EXPECT_EQ(p.flops, 2 * m * r);

  const Target gpu = backend_info("cuda").nominal;
  const PeakBenchmark g = compute_benchmark(gpu, DType::Float16);
  EXPECT_EQ(count_opts(g.kernel, OptOp::Local), 1);
  EXPECT_EQ(count_opts(g.kernel, OptOp::Thread), 0);
  EXPECT_EQ(codegen(g.kernel, gpu, "fma").flops, 2 * g.buffers[0].second * g.buffers[2].second);
}

TEST(Peaks, TheBandwidthBenchmarkStreamsSeveralTimesTheLastLevelCache) {
  const PeakBenchmark cpu = bandwidth_benchmark(cpu_target(Isa::Avx512, 2, {.l3 = 32 << 20}));
  EXPECT_EQ(cpu.buffers[0].second * 4, int64_t{128} << 20);
  EXPECT_NE(cpu.what.find("4 x the 32 MiB last-level cache"), std::string::npos) << cpu.what;
  const PeakBenchmark small = bandwidth_benchmark(cpu_target(Isa::Avx2, 1, {.l2 = 1 << 20}));
  EXPECT_EQ(small.buffers[0].second * 4, int64_t{64} << 20) << "at least 64 MiB";
  const PeakBenchmark gpu = bandwidth_benchmark(backend_info("cuda").nominal);
  EXPECT_EQ(gpu.buffers[0].second * 4, int64_t{512} << 20);
}

TEST(Peaks, TheCpuIsMeasuredQuicklyAndKeptUnderItsHardware) {
  MemoryStore memory;
  Device& cpu = device("CPU");
  const auto t0 = std::chrono::steady_clock::now();
  const DevicePeaks p = device_peaks(cpu, memory.store());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // about half a second with the benchmarks compiled before, a few seconds when the machine is busy
  EXPECT_LT(seconds, 10) << "the measurement must stay short: it runs on the first :roofline of every machine";
  EXPECT_FALSE(p.kept);
  ASSERT_TRUE(p.bandwidth.value) << p.bandwidth.source;
  EXPECT_GT(*p.bandwidth.value, 1e8);
  ASSERT_TRUE(p.launch.value) << p.launch.source;
  EXPECT_LT(*p.launch.value, 0.01);
  for (const DType d : measured_dtypes(cpu.target())) {
    ASSERT_TRUE(p.compute_of(d) && p.compute_of(d)->value) << name(d);
    EXPECT_GT(*p.compute_of(d)->value, 1e7) << name(d);
  }
  EXPECT_NE(p.bandwidth.source.find("measured: E_"), std::string::npos) << p.bandwidth.source;
  EXPECT_NE(p.tensor_cores.source.find("absent: the CPU has no matrix units"), std::string::npos);

  const DevicePeaks again = device_peaks(cpu, memory.store());
  EXPECT_TRUE(again.kept);
  EXPECT_EQ(again.bandwidth.value, p.bandwidth.value);
  EXPECT_EQ(again.measured, p.measured);
  // another device's hardware (LLVM's compiler) finds nothing kept under it
  EXPECT_NE(peaks_key(device("LLVM")), peaks_key(cpu));
  EXPECT_FALSE(kept_peaks(device("LLVM"), memory.store()));
}

TEST(Peaks, TheRecordKeepsEachFigureOrWhyItIsAbsent) {
  DevicePeaks p{.device = "CPU",
                .bandwidth = {2.5e10, "measured: E_4096, x + 1"},
                .compute = {{DType::Float32, {1.25e11, "measured: r_2_16, chains"}},
                            {DType::Float16, {std::nullopt, "absent: its benchmark failed: no\ttabs"}}},
                .launch = {3.5e-6, "measured: E_1"},
                .measured = "2026-03-01 14:05"};
  const std::optional<DevicePeaks> back = read_peaks_record(peaks_record(p));
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->kept);
  EXPECT_EQ(back->bandwidth.value, 2.5e10);
  EXPECT_EQ(back->compute_of(DType::Float32)->value, 1.25e11);
  EXPECT_FALSE(back->compute_of(DType::Float16)->value);
  EXPECT_EQ(back->compute_of(DType::Float16)->source, "absent: its benchmark failed: no tabs");
  EXPECT_EQ(back->launch.value, 3.5e-6);
  EXPECT_EQ(back->measured, "2026-03-01 14:05");
  EXPECT_FALSE(read_peaks_record("tinyrepl roofline peaks 0\nbandwidth\t1\tx\n"));
  EXPECT_FALSE(read_peaks_record(peaks_record(p) + "bandwidth\tmany\tx\n"));
}

TEST(Peaks, TensorCoresComeFromTheDataSheetOfAKnownPart) {
  const std::optional<DataSheetFigure> sxm = tensor_core_figure("NVIDIA H100 80GB HBM3");
  ASSERT_TRUE(sxm);
  EXPECT_EQ(sxm->part, "NVIDIA H100 SXM5");
  EXPECT_DOUBLE_EQ(sxm->flops, 989.5e12);
  EXPECT_DOUBLE_EQ(tensor_core_figure("NVIDIA H100 PCIe")->flops, 756.5e12);
  EXPECT_EQ(tensor_core_figure("NVIDIA H200")->part, "NVIDIA H200 SXM");
  EXPECT_DOUBLE_EQ(tensor_core_figure("NVIDIA A100-SXM4-80GB")->flops, 312e12);
  EXPECT_FALSE(tensor_core_figure("NVIDIA H100 NVL")) << "its own clocks, not in the table";
  EXPECT_FALSE(tensor_core_figure("NVIDIA GeForce RTX 4090"));
  EXPECT_FALSE(tensor_core_figure("NVIDIA GH200 480GB")) << "a Grace Hopper is not an H200";

  const Target sm90 = backend_info("cuda").nominal;
  const Peak known = tensor_core_peak(sm90, "CUDA (cuda)\nNVIDIA H100 PCIe (sm_90), NVRTC 12.4 for sm_90");
  EXPECT_DOUBLE_EQ(known.value.value_or(0), 756.5e12);
  EXPECT_EQ(known.source.rfind("data sheet: NVIDIA H100 PCIe", 0), 0u) << known.source;
  const Peak unknown = tensor_core_peak(sm90, "CUDA (cuda)\nNVIDIA GeForce RTX 4090 (sm_89)");
  EXPECT_FALSE(unknown.value);
  EXPECT_EQ(unknown.source.rfind("absent: the part is not among the data sheets", 0), 0u) << unknown.source;
  Target no_units = sm90;
  no_units.matrix_units.clear();
  EXPECT_FALSE(tensor_core_peak(no_units, "NVIDIA H100 PCIe").value);
}

}  // namespace
}  // namespace tr
