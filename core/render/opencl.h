#pragma once
// What the OPENCL device and QCOM's renderer (core/render/qcom.h) need of the OpenCL renderer beyond
// the backend table's "opencl" text.
#include <string>

#include "core/ir/uops.h"
#include "core/render/cstyle.h"

namespace tr {

// OpenCL C as a C-style language. Without native_half (a driver without cl_khr_fp16: PoCL on the CPU)
// half lives only in memory, moved by vload_half/vstore_half_rte, float in registers, each half result
// rounded to half precision.
CStyleLanguage opencl_language(bool native_half);
// The kernel as the OPENCL device runs it.
std::string render_opencl_for(const UOpProgram& p, bool native_half);

}  // namespace tr
