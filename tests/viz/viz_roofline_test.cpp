// The roofline's analysis against given peaks: a kernel of known bytes and FLOPs gets its intensity,
// the roof at it, its percentage and its bound; and the picture of it is well-formed SVG that names
// every kernel.
#include <gtest/gtest.h>

#include <string>

#include "viz/roofline.h"
#include "viz/roofline_plot.h"
#include "viz/roofline_svg.h"

namespace tr {
namespace {

// 100 GB/s, 1 TFLOPS in float32 and 4 in float16, a launch of 5 us.
DevicePeaks given_peaks() {
  return {.device = "CPU",
          .bandwidth = {100e9, "measured: E_1"},
          .compute = {{DType::Float32, {1e12, "measured: r_1"}}, {DType::Float16, {4e12, "measured: r_2"}}},
          .tensor_cores = {std::nullopt, "absent: the CPU has no matrix units the TC opt uses"},
          .launch = {5e-6, "measured: E_1"},
          .measured = "2026-03-01 14:05"};
}

KernelFigures kernel(double flops, double bytes, double seconds, DType dtype = DType::Float32) {
  return {.k = 3, .name = "r_x", .device = "CPU", .flops = flops, .bytes = bytes, .seconds = seconds, .dtype = dtype};
}

TEST(Roofline, ACopyAtTheBandwidthIsAtItsMemoryRoof) {
  // 1 GB moved and 125 MFLOPs (x + 1 over 125M floats): 0.125 FLOP/B, 12.5 GFLOPS at the roof; 10 ms at 100 GB/s
  const RooflinePoint p = place(kernel(125e6, 1e9, 0.0125), given_peaks());
  EXPECT_DOUBLE_EQ(p.intensity, 0.125);
  EXPECT_DOUBLE_EQ(*p.roof, 12.5e9);
  EXPECT_DOUBLE_EQ(p.bytes_per_s, 80e9);
  EXPECT_DOUBLE_EQ(p.flops_per_s, 10e9);
  EXPECT_EQ(p.bound, Bound::Memory);
  EXPECT_DOUBLE_EQ(*p.percent, 80);
  EXPECT_EQ(p.note, "");
}

TEST(Roofline, AKernelPastTheRidgeIsBoundByItsDtypesCompute) {
  // 100 FLOP/B, past float32's ridge of 10: the roof is 1 TFLOPS; at 500 GFLOPS it reaches half of it
  const RooflinePoint f32 = place(kernel(1e12, 1e10, 2.0), given_peaks());
  EXPECT_DOUBLE_EQ(f32.intensity, 100);
  EXPECT_DOUBLE_EQ(*f32.roof, 1e12);
  EXPECT_EQ(f32.bound, Bound::Compute);
  EXPECT_DOUBLE_EQ(*f32.percent, 50);
  // the same kernel in float16 meets its own roof: 4 TFLOPS, past its ridge of 40
  const RooflinePoint f16 = place(kernel(1e12, 1e10, 2.0, DType::Float16), given_peaks());
  EXPECT_DOUBLE_EQ(*f16.roof, 4e12);
  EXPECT_DOUBLE_EQ(*f16.percent, 12.5);
  // below float16's ridge the same intensity is memory's: 20 FLOP/B at 100 GB/s
  const RooflinePoint low = place(kernel(2e11, 1e10, 1.0, DType::Float16), given_peaks());
  EXPECT_DOUBLE_EQ(*low.roof, 2e12);
  EXPECT_EQ(low.bound, Bound::Memory);
  EXPECT_DOUBLE_EQ(*low.percent, 10);
}

TEST(Roofline, AKernelNearALaunchIsLaunchBound) {
  // 4 KiB and 1K FLOPs would take 41 ns at the roofs: its 8 us are a launch's 5 us and a little
  const RooflinePoint tiny = place(kernel(1024, 4096, 8e-6), given_peaks());
  EXPECT_EQ(tiny.bound, Bound::Launch);
  EXPECT_DOUBLE_EQ(*tiny.percent, 62.5);
  // 1 MB would take 10 us at the bandwidth, but the kernel took 9 us: within twice a launch
  EXPECT_EQ(place(kernel(0, 1e6, 9e-6), given_peaks()).bound, Bound::Launch);
  // and at 40 us it is memory's
  const RooflinePoint slow = place(kernel(0, 1e6, 40e-6), given_peaks());
  EXPECT_EQ(slow.bound, Bound::Memory);
  EXPECT_DOUBLE_EQ(*slow.percent, 25);
  EXPECT_DOUBLE_EQ(slow.intensity, 0);
  EXPECT_DOUBLE_EQ(*slow.roof, 0);
}

TEST(Roofline, AMissingRoofIsSaidAndLeftOut) {
  DevicePeaks p = given_peaks();
  const RooflinePoint f64 = place(kernel(1e12, 1e10, 2.0, DType::Float64), p);
  EXPECT_FALSE(f64.compute_roof);
  EXPECT_EQ(f64.bound, Bound::Memory) << "only the roofs it has";
  EXPECT_EQ(f64.note, "no float64 compute roof: none is measured");
  KernelFigures tc = kernel(1e12, 1e10, 2.0, DType::Float16);
  tc.tensor_cores = true;
  EXPECT_EQ(place(tc, p).note, "no tensor-core roof: absent: the CPU has no matrix units the TC opt uses");
  p.bandwidth = {std::nullopt, "absent: its benchmark failed: no memory"};
  p.launch = {std::nullopt, "absent: its benchmark failed: no launch"};
  const RooflinePoint nothing = place(kernel(1e12, 1e10, 2.0, DType::Float64), p);
  EXPECT_EQ(nothing.bound, Bound::Unknown);
  EXPECT_FALSE(nothing.percent);
}

TEST(Roofline, TheTableNamesEachKernelAndThePeaksTheirSource) {
  const DevicePeaks p = given_peaks();
  const std::string peaks = peaks_table(p, "/cache/tinyrepl");
  EXPECT_NE(peaks.find("CPU peaks, measured now (2026-03-01 14:05), kept in /cache/tinyrepl"), std::string::npos) << peaks;
  EXPECT_NE(peaks.find("memory bandwidth        100.00 GB/s  measured: E_1\n"), std::string::npos) << peaks;
  EXPECT_NE(peaks.find("tensor cores                      -  absent: the CPU has no matrix units"), std::string::npos)
      << peaks;
  EXPECT_NE(peaks.find("ridge point of float32: 10 FLOP/B"), std::string::npos) << peaks;
  const std::string table = roofline_table({place(kernel(125e6, 1e9, 0.0125), p)});
  EXPECT_EQ(table,
            " K kernel       device  dtype       FLOP/B     GFLOPS      GB/s roof GFLOPS % of bound  bound\n"
            " 3 r_x          CPU     float32      0.125      10.00     80.00       12.50      80.0%  memory\n");
}

TEST(Roofline, TheSvgIsWellFormedAndNamesEveryKernel) {
  const DevicePeaks p = given_peaks();
  KernelFigures copy = kernel(0, 1e6, 40e-6);
  copy.k = 0;
  copy.name = "E_<copy>&";
  KernelFigures matmul = kernel(1e12, 1e10, 2.0);
  matmul.k = 1;
  matmul.name = "r_64_64";
  const std::string svg = roofline_svg({place(copy, p), place(matmul, p)}, {p});
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("1 r_64_64, 50% compute"), std::string::npos);
  EXPECT_NE(svg.find("0 E_&lt;copy&gt;&amp;, 25.00 GB/s: 25% of its memory bound"), std::string::npos) << svg;
  EXPECT_NE(svg.find("CPU float32 1000.0 GFLOPS"), std::string::npos);
  EXPECT_NE(svg.find("CPU 100.0 GB/s"), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
}

TEST(Roofline, ThePlotPutsEachKernelUnderItsRoofAndMarksTheSelectedOne) {
  const DevicePeaks p = given_peaks();
  KernelFigures a = kernel(125e6, 1e9, 0.0125);
  a.k = 0;
  KernelFigures b = kernel(1e12, 1e10, 2.0);
  b.k = 1;
  const RooflinePlot plot = roofline_plot({place(a, p), place(b, p)}, {p}, 80, 20, 1);
  ASSERT_EQ(plot.lines.size(), 20u);
  ASSERT_EQ(plot.marks.size(), 2u);
  EXPECT_EQ(plot.marks.back().k, 1) << "the selected one last";
  EXPECT_EQ(plot.lines[static_cast<size_t>(plot.marks[0].row)][static_cast<size_t>(plot.marks[0].col)], '0');
  EXPECT_EQ(plot.lines[static_cast<size_t>(plot.marks[1].row)][static_cast<size_t>(plot.marks[1].col)], '@');
  // the matmul at half the compute roof stands below it, the copy left of it
  std::string text;
  for (const std::string& l : plot.lines) text += l + "\n";
  EXPECT_NE(text.find("float32 1000 GFLOPS"), std::string::npos) << text;
  EXPECT_EQ(text.find("CPU float32"), std::string::npos) << "one device: the roofs need not name it\n" << text;
  EXPECT_NE(text.find('/'), std::string::npos) << text;
  EXPECT_LT(plot.marks[0].col, plot.marks[1].col) << text;
  EXPECT_TRUE(roofline_plot({}, {p}, 10, 3, -1).lines.empty()) << "too small to draw";
}

}  // namespace
}  // namespace tr
