#include "viz/data_sheets.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace tr {
namespace {

struct Sheet {
  std::string_view names;      // in the driver's name, as a word of its own (GH200 is not an H200)
  std::string_view not_named;  // a variant with figures of its own, not in this table ("" for none)
  std::string_view part;
  double sparse_tflops;        // the sheet's FP16 Tensor Core line, which counts 2:4 sparsity
};

// NVIDIA's data sheets give the FP16 and BF16 Tensor Core rate with sparsity; a dense multiply runs at
// half of it. H100 SXM5's driver name is "NVIDIA H100 80GB HBM3"; the NVL variants have other clocks.
constexpr Sheet kSheets[] = {
    {" H200", "NVL", "NVIDIA H200 SXM", 1979},
    {" H100 PCIe", "", "NVIDIA H100 PCIe", 1513},
    {" H100", "NVL", "NVIDIA H100 SXM5", 1979},
    {" A100", "", "NVIDIA A100", 624},
};

bool has(std::string_view text, std::string_view part) { return !part.empty() && text.find(part) != std::string_view::npos; }

}  // namespace

std::optional<DataSheetFigure> tensor_core_figure(std::string_view gpu_name) {
  const auto s = std::find_if(std::begin(kSheets), std::end(kSheets),
                              [&](const Sheet& s) { return has(gpu_name, s.names) && !has(gpu_name, s.not_named); });
  if (s == std::end(kSheets)) return std::nullopt;
  return DataSheetFigure{std::string(s->part), s->sparse_tflops / 2 * 1e12,
                         fmt::format("FP16/BF16 Tensor Core {:g} TFLOPS with sparsity, half of it dense", s->sparse_tflops)};
}

Peak tensor_core_peak(const Target& t, std::string_view hardware) {
  if (t.matrix_units.empty())
    return {std::nullopt, fmt::format("absent: the {} has no matrix units the TC opt uses", t.gpu ? "GPU" : "CPU")};
  if (const std::optional<DataSheetFigure> f = tensor_core_figure(hardware))
    return {f->flops, fmt::format("data sheet: {}, {}", f->part, f->note)};
  return {std::nullopt,
          "absent: the part is not among the data sheets tinyrepl knows (viz/data_sheets.cpp), and no benchmark "
          "measures the matrix units"};
}

}  // namespace tr
