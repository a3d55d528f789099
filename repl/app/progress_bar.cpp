#include "repl/app/progress_bar.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>

#include "core/base/progress.h"

namespace tr::repl {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kQuiet = std::chrono::milliseconds(500);  // shorter work shows no bar
constexpr auto kTick = std::chrono::milliseconds(100);
constexpr int kBarCells = 20;

void put(int fd, const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n <= 0) return;  // a terminal that went away: no bar
    done += static_cast<size_t>(n);
  }
}

int columns(int fd) {
  winsize w{};
  return ::ioctl(fd, TIOCGWINSZ, &w) == 0 && w.ws_col > 0 ? w.ws_col : 80;
}

std::string bar_line(const Progress& p, int width) {
  const int filled = p.total > 0 ? kBarCells * p.at / p.total : 0;
  std::string line = "[" + std::string(static_cast<size_t>(filled), '#') +
                     std::string(static_cast<size_t>(kBarCells - filled), '.') + "] " + progress_text(p);
  // one line, never wrapped: a wrapped line would not be erased by \r
  if (static_cast<int>(line.size()) > width - 1) line.resize(static_cast<size_t>(std::max(0, width - 1)));
  return line;
}

}  // namespace

ProgressBar::ProgressBar(int fd) : fd_(fd), thread_([this] { loop(); }) {}

ProgressBar::~ProgressBar() {
  {
    const std::lock_guard lock(mu_);
    stop_ = true;
    erase();
  }
  wake_.notify_all();
  thread_.join();
}

std::unique_lock<std::mutex> ProgressBar::hold() {
  std::unique_lock lock(mu_);
  erase();
  return lock;
}

void ProgressBar::erase() {
  if (!shown_) return;
  put(fd_, "\r\033[K");
  shown_ = false;
}

void ProgressBar::loop() {
  std::optional<Clock::time_point> busy_since;
  std::unique_lock lock(mu_);
  while (!stop_) {
    wake_.wait_for(lock, kTick);
    if (stop_) break;
    const Progress p = progress();
    if (p.phase == Phase::Idle) {
      busy_since.reset();
      erase();
      continue;
    }
    if (!busy_since) busy_since = Clock::now();
    if (Clock::now() - *busy_since < kQuiet) continue;
    const std::string line = bar_line(p, columns(fd_));
    if (shown_ && line == drawn_) continue;
    put(fd_, "\r\033[K" + line);
    drawn_ = line;
    shown_ = true;
  }
}

}  // namespace tr::repl
