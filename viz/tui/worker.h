#pragma once
// Runs the host's input lines off the terminal's thread, one at a time, so that the TUI keeps
// drawing, scrolling and answering keys (Ctrl-C among them) while a statement runs. One thread for the
// TUI's whole life: an interrupt signals the threads inside a kernel (devices/abortable.h), and those
// must outlive the signal.
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "viz/tui/tui.h"

namespace tr::tui {

class Worker {
 public:
  Worker();
  ~Worker();  // stops a job that still runs (as Ctrl-C does) and waits for it
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  void start(std::function<TuiOutput()> job);  // only when !busy()
  bool busy() const;
  // The output of the job that has finished, once; an exception it threw becomes an error line.
  std::optional<TuiOutput> take();

 private:
  void loop();

  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::function<TuiOutput()> job_;
  std::optional<TuiOutput> done_;
  bool busy_ = false, stop_ = false;
  std::thread thread_;
};

}  // namespace tr::tui
