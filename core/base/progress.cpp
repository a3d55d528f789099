#include "core/base/progress.h"

#include <mutex>

#include <fmt/format.h>

namespace tr {
namespace {

std::mutex mu;
Progress now;

}  // namespace

void report_progress(Phase phase, int at, int total, std::string what) {
  const std::lock_guard lock(mu);
  now = Progress{phase, at, total, std::move(what)};
}

void end_progress() { report_progress(Phase::Idle, 0, 0, ""); }

Progress progress() {
  const std::lock_guard lock(mu);
  return now;
}

std::string progress_text(const Progress& p) {
  switch (p.phase) {
    case Phase::Idle: return "";
    case Phase::Compile: return fmt::format("compiling {}/{} {}", p.at + 1, p.total, p.what);
    case Phase::BeamCompile: return fmt::format("BEAM candidate {}/{} {}, compiling", p.at + 1, p.total, p.what);
    case Phase::Beam: return fmt::format("BEAM candidate {}/{} {}", p.at + 1, p.total, p.what);
    case Phase::Run: return fmt::format("running kernel {}/{} {}", p.at + 1, p.total, p.what);
  }
  return "";
}

}  // namespace tr
