#pragma once
// Registers every device this build knows (CPU, LLVM, OPENCL, CUDA, METAL) with core's registry.
namespace tr {

void register_devices();

}  // namespace tr
