#pragma once
// The stack that statements run on. Python's limit of 1000 nested calls must be an error in every build,
// never a stack overflow: at -O0 under AddressSanitizer a nested .tg call takes about 25 KB of stack
// (measured on the x86-64 CI machine), so 1000 of them do not fit in the usual 8 MB of a main thread.
// Statements therefore run on a thread of their own with a stack sized for the limit, and a call
// also checks the room that is left, for whatever thread runs it.
#include <cstddef>
#include <functional>

namespace tr::repl {

// Runs fn on a thread whose stack holds kMaxCallDepth nested calls, or here when this thread is one
// already. An exception that fn throws is thrown again here.
void run_on_call_stack(const std::function<void()>& fn);

// Bytes of this thread's stack below the caller's frame.
size_t stack_left();

// Room a call needs beyond its own frames: whatever the deepest call does next (scheduling, compiling,
// running a kernel) must still fit.
constexpr size_t kStackReserve = size_t{2} << 20;

}  // namespace tr::repl
