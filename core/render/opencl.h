#pragma once
// What the OPENCL device needs of the OpenCL renderer beyond the backend table's "opencl" text.
#include <cstdint>
#include <string>

#include "core/ir/uops.h"

namespace tr {

// The kernel as a device runs it. Without native_half (a driver without cl_khr_fp16: PoCL on the CPU)
// half lives only in memory, moved by vload_half/vstore_half_rte, float in registers, each half result
// rounded to half precision. With images (QCOM, tinygrad's IMAGE=2), each buffer that image_buffers()
// (core/render/cstyle.h) allows is an image2d_t of float4 texels, kImageWidth texels a row, read with
// read_imagef and written with write_imagef.
std::string render_opencl_for(const UOpProgram& p, bool native_half, bool images);

// Texels in a row of a buffer taken as an image; a buffer of more wraps onto further rows (Adreno and
// PoCL take images 16384 texels wide and high).
inline constexpr int64_t kImageWidth = 4096;

}  // namespace tr
