#pragma once
// Registers every device this build knows (CPU, LLVM, OPENCL, QCOM, CUDA, METAL, NV, WEBGPU) with
// core's registry, and installs the on-disk cache as the store of BEAM's choices.
namespace tr {

void register_devices();

}  // namespace tr
