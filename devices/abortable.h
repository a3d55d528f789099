#pragma once
// Runs compiled kernel code on the calling thread so that Ctrl-C can leave it halfway. A kernel only
// computes (loads, stores, arithmetic, libm), holding no lock and owning no memory, so a signal
// handler may jump out of it: request_interrupt() signals every thread inside one, and each jumps
// back here. What the kernel wrote is then garbage, and the realize that ran it throws.
namespace tr {

using KernelEntry = void (*)(void** bufs, int core_id);

// False when an interrupt stopped the kernel (or came before it started).
bool run_abortable(KernelEntry entry, void** bufs, int core_id);

}  // namespace tr
