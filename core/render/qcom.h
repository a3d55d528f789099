#pragma once
// QCOM: OpenCL C in which each buffer that image_buffers() (core/render/cstyle.h) allows is an image2d_t
// of float4 texels, kImageWidth texels a row, read with read_imagef and written with write_imagef
// (tinygrad's IMAGE=2), as Qualcomm's Adreno reads them fastest.
#include <cstdint>
#include <string>

#include "core/ir/uops.h"

namespace tr {

// The kernel as the QCOM device runs it (native_half as for OpenCL, core/render/opencl.h).
std::string render_qcom_for(const UOpProgram& p, bool native_half);

// Texels in a row of a buffer taken as an image; a buffer of more wraps onto further rows (Adreno and
// PoCL take images 16384 texels wide and high).
inline constexpr int64_t kImageWidth = 4096;

}  // namespace tr
