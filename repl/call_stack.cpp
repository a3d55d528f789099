#include "repl/call_stack.h"

#include <pthread.h>

#include <cstdint>
#include <exception>

#include "core/error.h"

namespace tr::repl {
namespace {

// 1000 calls of 25 KB, the reserve, and room for nested expressions; only the pages touched are memory.
constexpr size_t kCallStackBytes = size_t{64} << 20;

thread_local bool on_call_stack = false;
thread_local uintptr_t stack_low = 0;  // the lowest address of this thread's stack, once asked

uintptr_t lowest_address() {
  pthread_attr_t attr;
  void* base = nullptr;
  size_t size = 0;
  if (::pthread_getattr_np(::pthread_self(), &attr) == 0) {
    ::pthread_attr_getstack(&attr, &base, &size);
    ::pthread_attr_destroy(&attr);
  }
  return reinterpret_cast<uintptr_t>(base);
}

struct Job {
  const std::function<void()>* fn;
  std::exception_ptr error;
};

void* run_job(void* p) {
  Job& job = *static_cast<Job*>(p);
  on_call_stack = true;
  try {
    (*job.fn)();
  } catch (...) {
    job.error = std::current_exception();
  }
  return nullptr;
}

}  // namespace

void run_on_call_stack(const std::function<void()>& fn) {
  if (on_call_stack) return fn();
  Job job{&fn, nullptr};
  pthread_attr_t attr;
  ::pthread_attr_init(&attr);
  ::pthread_attr_setstacksize(&attr, kCallStackBytes);
  pthread_t thread;
  const int made = ::pthread_create(&thread, &attr, run_job, &job);
  ::pthread_attr_destroy(&attr);
  if (made != 0) fail("memory", "cannot start a thread with a {} MB stack for the statement", kCallStackBytes >> 20);
  ::pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

size_t stack_left() {
  if (stack_low == 0) stack_low = lowest_address();
  const auto sp = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return sp > stack_low ? sp - stack_low : 0;
}

}  // namespace tr::repl
