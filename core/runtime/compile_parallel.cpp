#include "core/runtime/compile_parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#include "core/base/progress.h"

namespace tr {

void compile_each(std::vector<CompileJob>& jobs, Phase phase, const std::string& what) {
  const int n = static_cast<int>(jobs.size());
  std::atomic<int> next{0}, finished{0};
  auto work = [&] {
    for (int i = next++; i < n; i = next++) {
      CompileJob& j = jobs[static_cast<size_t>(i)];
      report_progress(phase, finished.load(), n, what.empty() ? j.program->name : what);
      try {
        j.result = j.device->compile(*j.program, *j.source, j.cached);
      } catch (...) {
        j.failure = std::current_exception();
      }
      finished++;
    }
  };
  const int threads = std::min(n, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; t++) helpers.emplace_back(work);
  work();
  for (std::thread& t : helpers) t.join();
}

void compile_parallel(std::vector<CompileJob>& jobs) {
  compile_each(jobs);
  for (const CompileJob& j : jobs)
    if (j.failure) std::rethrow_exception(j.failure);
}

}  // namespace tr
