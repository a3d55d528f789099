#pragma once
// The stack that statements run on. Python's limit of 1000 nested calls must be an error in every build,
// never a stack overflow, whatever stack the thread has. A statement runs where it is when this
// thread's stack has room for the limit (a main thread's 8 MB in an optimized build), else on a thread
// of its own with a stack sized for it; and a call checks the room that is left, on any thread.
#include <cstddef>
#include <functional>

namespace tr::repl {

// Runs fn where it has room for kMaxCallDepth nested calls. An exception that fn throws comes out here.
void run_on_call_stack(const std::function<void()>& fn);

// Bytes of this thread's stack below the caller's frame.
size_t stack_left();

// Room a call needs beyond its own frames: whatever the deepest call does next (scheduling, compiling,
// running a kernel) must still fit.
constexpr size_t kStackReserve = size_t{2} << 20;

}  // namespace tr::repl
