#pragma once
// Waiting for a GPU kernel without blocking in the driver: the driver is asked whether the kernel's
// event has completed, and between two questions the interrupt flag is looked at, so that Ctrl-C
// returns the prompt while a long kernel runs. The kernel itself runs on to its end (neither OpenCL
// nor CUDA can stop one): the device's next command waits for it.
#include <functional>

namespace tr {

// Polls done() until it returns true; throws Error("interrupt") when Ctrl-C comes first.
void wait_for_gpu(const std::function<bool()>& done);

}  // namespace tr
