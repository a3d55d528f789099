#pragma once
// Some runtimes print to the process's stderr from inside a library call, where no callback or log
// reaches: PoCL's in-process clang ends a failed build with "1 error generated.", and libwayland-client,
// which Vulkan drivers load, says "XDG_RUNTIME_DIR is invalid or not set" when a WebGPU instance is made
// outside a desktop session. In the TUI such text lands on the curses screen, and in a plain session
// it is a line no statement owns. While a capture lives, file descriptor 2 points at an unnamed file;
// finish() puts stderr back and returns what reached it, for the caller to put in its error or drop.
// A capture left without finish() writes what it holds back to stderr: other threads' text is delayed,
// never lost. One capture at a time in the process: a second waits for the first.
#include <mutex>
#include <string>

namespace tr {

class StderrCapture {
 public:
  StderrCapture();
  ~StderrCapture();
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  std::string finish();

 private:
  std::unique_lock<std::mutex> lock_;
  int saved_ = -1, file_ = -1;
};

}  // namespace tr
