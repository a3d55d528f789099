#pragma once
// Registers every device this build knows (CPU, LLVM, OPENCL, CUDA, METAL, NV, WEBGPU) with core's registry, and
// installs the on-disk cache as the store of BEAM's choices.
namespace tr {

void register_devices();

}  // namespace tr
