#pragma once
// The tensor cores' peak from the vendor's data sheet, for the parts known here: a benchmark of the
// matrix units would need a kernel as good as cuBLAS's, so the roofline takes the published figure and
// says so. Parts are told apart by the name the driver gives (cuDeviceGetName).
#include <optional>
#include <string>
#include <string_view>

#include "core/ir/target.h"
#include "viz/peaks.h"

namespace tr {

struct DataSheetFigure {
  std::string part;  // "NVIDIA H100 SXM5"
  double flops;      // dense half (and bfloat16) multiply-adds with float accumulation, FLOP per second
  std::string note;  // how the figure reads off the sheet
};

// The figure of the part that `gpu_name` names ("NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe", ...), if known.
std::optional<DataSheetFigure> tensor_core_figure(std::string_view gpu_name);

// The roof of a device's matrix units: the data sheet's figure, labelled as such; absent (saying why)
// where the target has no matrix units or the part is not known. `hardware` is Device::hardware(),
// which holds the GPU's name.
Peak tensor_core_peak(const Target& t, std::string_view hardware);

}  // namespace tr
