#include "repl/call_stack.h"

#include <pthread.h>

#include <cstdint>
#include <exception>

#include "core/base/error.h"
#include "core/base/sanitizer.h"
#include "repl/session.h"

namespace tr::repl {
namespace {

// The stack one nested .tg call takes, with room to spare (measured on x86-64 with g++ 12 and clang 14:
// under 2 KB at -O2; about 25 KB at -O0 under AddressSanitizer, whose frames hold redzones).
#if defined(TINYREPL_ASAN) || !defined(__OPTIMIZE__)
constexpr size_t kCallBytes = size_t{32} << 10;
#else
constexpr size_t kCallBytes = size_t{4} << 10;
#endif
constexpr size_t kRoomForTheLimit = kStackReserve + kMaxCallDepth * kCallBytes;

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
  try {
    (*job.fn)();
  } catch (...) {
    job.error = std::current_exception();
  }
  return nullptr;
}

}  // namespace

void run_on_call_stack(const std::function<void()>& fn) {
  if (stack_left() >= kRoomForTheLimit) return fn();
  Job job{&fn, nullptr};
  pthread_attr_t attr;
  ::pthread_attr_init(&attr);
  ::pthread_attr_setstacksize(&attr, 2 * kRoomForTheLimit);  // only the pages touched become memory
  pthread_t thread;
  const int made = ::pthread_create(&thread, &attr, run_job, &job);
  ::pthread_attr_destroy(&attr);
  if (made != 0) fail("memory", "cannot start a thread with a {} MB stack for the statement", (2 * kRoomForTheLimit) >> 20);
  ::pthread_join(thread, nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

size_t stack_left() {
  if (stack_low == 0) stack_low = lowest_address();
  const auto sp = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return sp > stack_low ? sp - stack_low : 0;
}

}  // namespace tr::repl
