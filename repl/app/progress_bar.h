#pragma once
// The plain REPL's progress bar: on a terminal's stderr, once work (compiles, a BEAM search, a
// kernel) has gone on for half a second, one line that says what it is at (core/base/progress.h), redrawn
// a few times a second by its own thread and erased before anything else is written.
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace tr::repl {

class ProgressBar {
 public:
  explicit ProgressBar(int fd);  // a terminal's file descriptor
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Erases the bar and keeps it away while the lock is held: output goes out under it.
  std::unique_lock<std::mutex> hold();

 private:
  void loop();
  void erase();

  int fd_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool shown_ = false;
  std::string drawn_;  // what the bar shows: redrawn only when that changes
  std::thread thread_;
};

}  // namespace tr::repl
