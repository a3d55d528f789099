#pragma once
// Registers every device this build knows (CPU, LLVM, OPENCL, QCOM, CUDA, METAL, NV, WEBGPU) with
// core's registry, with the disassemblers of their backends' code (:asm), and installs the on-disk
// cache as the store of BEAM's choices.
namespace tr {

void register_devices();
// Each backend's way to its machine code (devices/disassemblers.cpp); register_devices calls it.
void register_disassemblers();

}  // namespace tr
