#include "viz/tui/worker.h"

#include <exception>
#include <utility>

#include <fmt/format.h>

#include "core/base/interrupt.h"

namespace tr::tui {

Worker::Worker() : thread_([this] { loop(); }) {}

Worker::~Worker() {
  {
    const std::lock_guard lock(mu_);
    stop_ = true;
    if (busy_) request_interrupt();
  }
  wake_.notify_all();
  thread_.join();
}

void Worker::start(std::function<TuiOutput()> job) {
  {
    const std::lock_guard lock(mu_);
    job_ = std::move(job);
    busy_ = true;
    done_.reset();
  }
  wake_.notify_all();
}

bool Worker::busy() const {
  const std::lock_guard lock(mu_);
  return busy_;
}

std::optional<TuiOutput> Worker::take() {
  const std::lock_guard lock(mu_);
  std::optional<TuiOutput> out = std::move(done_);
  done_.reset();
  return out;
}

void Worker::loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || job_; });
    if (!job_) return;  // stopping, with nothing to run
    const std::function<TuiOutput()> job = std::exchange(job_, nullptr);
    lock.unlock();
    TuiOutput out;
    try {
      out = job();
    } catch (const std::exception& e) {
      out.text = fmt::format("error: {}\n", e.what());
    }
    lock.lock();
    done_ = std::move(out);
    busy_ = false;
    if (stop_) return;
  }
}

}  // namespace tr::tui
