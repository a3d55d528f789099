#include "core/base/interrupt.h"

#include <array>
#include <atomic>

namespace tr {
namespace {

std::atomic<bool> pending{false};
std::array<std::atomic<void (*)()>, 4> wakers{};

}  // namespace

void request_interrupt() {
  pending.store(true);
  for (const auto& w : wakers)
    if (void (*f)() = w.load()) f();
}

bool interrupted() { return pending.load(std::memory_order_relaxed); }

void clear_interrupt() { pending.store(false); }

void check_interrupt() {
  if (interrupted()) throw_interrupt();
}

void throw_interrupt() { throw Error("interrupt", "KeyboardInterrupt"); }

bool is_interrupt(const Error& e) { return e.kind() == "interrupt"; }

void add_interrupt_waker(void (*waker)()) {
  for (auto& w : wakers) {
    void (*empty)() = nullptr;
    if (w.load() == waker || w.compare_exchange_strong(empty, waker)) return;
  }
  fail("internal", "too many interrupt wakers");
}

}  // namespace tr
