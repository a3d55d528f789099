#include "devices/stderr_capture.h"

#include <cstdio>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace tr {

namespace {

std::mutex& capture_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

StderrCapture::StderrCapture() : lock_(capture_mutex()) {
  std::fflush(stderr);
  file_ = ::memfd_create("tinyrepl-stderr", MFD_CLOEXEC);
  saved_ = file_ >= 0 ? ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0) : -1;
  if (saved_ >= 0) ::dup2(file_, STDERR_FILENO);
}

std::string StderrCapture::finish() {
  std::string text;
  if (saved_ >= 0) {
    std::fflush(stderr);
    ::dup2(saved_, STDERR_FILENO);
    ::close(saved_);
    saved_ = -1;
    char buf[4096];
    ssize_t n = 0;
    for (off_t at = 0; (n = ::pread(file_, buf, sizeof buf, at)) > 0; at += n) text.append(buf, static_cast<size_t>(n));
  }
  if (file_ >= 0) ::close(file_);
  file_ = -1;
  if (lock_.owns_lock()) lock_.unlock();
  return text;
}

StderrCapture::~StderrCapture() {
  const std::string text = finish();
  if (!text.empty()) std::fwrite(text.data(), 1, text.size(), stderr);
}

}  // namespace tr
