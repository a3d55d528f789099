#pragma once
// What the OPENCL device needs of the OpenCL renderer beyond the backend table's "opencl" text.
#include <string>

#include "core/uops.h"

namespace tr {

// The same kernel for a driver without cl_khr_fp16 (PoCL on the CPU): half only in memory, moved
// by vload_half/vstore_half_rte, float in registers, each half result rounded to half precision.
std::string render_opencl_half_in_float(const UOpProgram& p);

}  // namespace tr
