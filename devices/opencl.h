#pragma once
// What the OPENCL device shares with its image variant QCOM (devices/qcom.cpp): the OpenCL headers at
// the version the project targets, and its error check.
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <memory>
#include <string>

#include "core/runtime/device.h"

namespace tr {

std::string cl_error(cl_int e);
// Throws tr::Error("device", "WHAT failed: ...") unless e is CL_SUCCESS.
void cl_check(cl_int e, const char* what);

// OPENCL:N, or with images QCOM:N.
std::unique_ptr<Device> open_opencl_device(int index, bool images);

}  // namespace tr
