#pragma once
// Ctrl-C. The program's SIGINT handler calls request_interrupt(); long work asks interrupted() or
// calls check_interrupt() where it can stop cleanly: the evaluator between statements and loop
// iterations, BEAM between candidates, the realize loop between kernels, a compile while the compiler
// runs, a CPU kernel (devices/ jumps out of it through a waker), a wait for a GPU. The work then throws
// Error kind "interrupt", which the REPL reports as KeyboardInterrupt, keeping every name.
#include "core/base/error.h"

namespace tr {

// Async-signal-safe: sets the flag and calls every waker.
void request_interrupt();
bool interrupted();
// The interrupt has been answered (reported, or taken by the prompt as "drop this line").
void clear_interrupt();
// Throws Error("interrupt") when an interrupt is pending.
void check_interrupt();
[[noreturn]] void throw_interrupt();
bool is_interrupt(const Error& e);

// A waker stops work that no check reaches (a thread inside a kernel); it runs inside the signal
// handler, so it may only do what is async-signal-safe. At most a few are registered, once each.
void add_interrupt_waker(void (*waker)());

}  // namespace tr
