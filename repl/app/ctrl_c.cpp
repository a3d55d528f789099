#include "repl/app/ctrl_c.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>

#include "core/base/interrupt.h"

namespace tr::repl {
namespace {

constexpr long kPatienceSeconds = 3;

std::atomic<long> first_unanswered{0};  // CLOCK_MONOTONIC seconds of the pending Ctrl-C; 0: none

void on_sigint(int) {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  if (!interrupted()) first_unanswered = 0;
  const long since = first_unanswered.load();
  if (since == 0) first_unanswered = now.tv_sec + 1;  // +1: a clock that starts at 0 still counts
  else if (now.tv_sec + 1 - since >= kPatienceSeconds) ::_exit(130);
  request_interrupt();
}

}  // namespace

void catch_ctrl_c() {
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  // a blocked read or write carries on; the prompt's wait (pselect) returns EINTR nonetheless
  sa.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &sa, nullptr);
}

}  // namespace tr::repl
