#include "core/runtime/device_queues.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

namespace tr {

void run_queued(const std::vector<QueuedItem>& items, const std::function<void(size_t)>& run,
                const std::function<void(size_t)>& finished) {
  std::map<std::string, std::vector<size_t>> queues;
  for (size_t i = 0; i < items.size(); i++) queues[items[i].device].push_back(i);
  std::mutex mu;
  std::condition_variable changed;
  std::vector<bool> done(items.size(), false);
  std::deque<size_t> ended;
  std::exception_ptr error;
  size_t running = queues.size();
  const auto fail = [&](std::exception_ptr e) {
    const std::lock_guard lock(mu);
    if (!error) error = std::move(e);
    changed.notify_all();
  };
  std::vector<std::thread> threads;
  for (const auto& [name, queue] : queues) {
    threads.emplace_back([&, q = &queue] {
      for (const size_t i : *q) {
        {
          std::unique_lock lock(mu);
          changed.wait(lock, [&] {
            return error || std::all_of(items[i].after.begin(), items[i].after.end(), [&](size_t d) { return done[d]; });
          });
          if (error) break;
        }
        try {
          run(i);
        } catch (...) {
          fail(std::current_exception());
          break;
        }
        const std::lock_guard lock(mu);
        done[i] = true;
        ended.push_back(i);
        changed.notify_all();
      }
      const std::lock_guard lock(mu);
      running--;
      changed.notify_all();
    });
  }
  std::unique_lock lock(mu);
  while (running > 0 || !ended.empty()) {
    changed.wait(lock, [&] { return running == 0 || !ended.empty(); });
    while (!ended.empty()) {
      const size_t i = ended.front();
      ended.pop_front();
      lock.unlock();
      try {
        finished(i);
      } catch (...) {
        fail(std::current_exception());
      }
      lock.lock();
    }
  }
  lock.unlock();
  for (std::thread& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace tr
