#pragma once
// Runs .tg statements from a script, -e, a pipe or a person, and reports what happens: values, DEBUG
// lines or --json events, errors with their caret. It owns the session, so names survive errors.
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/realize/realize.h"
#include "repl/app/progress_bar.h"
#include "repl/app/reporter.h"
#include "repl/app/schedule_history.h"
#include "repl/app/status.h"
#include "repl/session.h"
#include "viz/kernel_view.h"

namespace tr::repl {

struct HostConfig {
  bool json = false;         // --json events instead of text
  bool echo = false;  // show each expression statement's value, as a Python shell does
  ProgressBar* bar = nullptr;  // the plain REPL's progress bar on a terminal, erased before any output
  bool color = false;  // DEBUG lines in colour: the text goes to a terminal
};

class Host {
 public:
  Host(HostConfig config, std::ostream& out, std::ostream& err);
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // Runs source's statements until one fails, after parsing all of it (a syntax error runs nothing).
  // file names it in errors and events; "" for interactive input, whose errors start "error:".
  // first_line: the line of file that source starts at.
  Status run_source(std::string_view source, const std::string& file, int first_line = 1);
  // Reports an error that belongs to no statement (a script that cannot be read).
  void report(const Error& e);
  // The end: DEBUG's avg line or --json's summary.
  void finish();

  // What the meta commands work with.
  Session& session() { return session_; }
  // Each statement's schedules (print(x) realizes x, then maybe a contiguous copy to read it) with
  // their runs, and the one the kernel views look at.
  ScheduleHistory& schedules() { return schedules_; }
  // The kernels and copies this host has run that the history keeps (the process may have run others
  // before it), and the totals of all it has run.
  std::vector<RunRecord> session_runs() const;
  RunTotals session_totals() const;
  void show(std::string_view command, std::string_view text);
  void show_roofline(const Roofline& r, std::string_view svg_file);
  // Between the stages of :step: false when the person wants to stop. Only a person at a terminal is
  // asked (set_pause); a script or a pipe gets every stage.
  bool pause(std::string_view next_stage) const;
  void set_pause(std::function<bool(std::string_view)> pause) { pause_ = std::move(pause); }
  // A viewer with panes (the TUI) shows :ast K, :uops K and :src K itself: those commands hand it the
  // view instead of printing. False when none is set.
  bool show_view(const KernelView& v) const { return view_ && (view_(v), true); }
  void set_viewer(std::function<void(const KernelView&)> view) { view_ = std::move(view); }
  // The successful statements of the session, as typed, for :save.
  const std::vector<std::string>& statements() const { return statements_; }
  void reset();

 private:
  // text: the statement as typed, which names its schedules in the history.
  Status execute(const Stmt& stmt, const SourceRef& source, std::string text);
  // Runs body, reporting what it throws as the statement's error (a Ctrl-C as KeyboardInterrupt).
  Status guarded(const Stmt& stmt, const SourceRef& source, const std::function<Status()>& body);
  Status outcome(const Outcome& o, const Stmt& stmt, const SourceRef& source);
  // An outcome from inside a compound statement or a function: one that stops the program throws.
  void nested_outcome(const Outcome& o, const Stmt& stmt);
  void report(const SourceError& e, const SourceRef& source);
  void report(const std::string& kind, const std::string& message, Span span, const SourceText& source);
  // Ctrl-C, reported as KeyboardInterrupt at span
  Status interrupt(Span span, const SourceRef& source);
  void on_run(const RunRecord& r);

  HostConfig config_;
  std::unique_ptr<Reporter> reporter_;
  Session session_;
  ScheduleHistory schedules_;
  uint64_t reported_ = 0;      // the number of the last realize whose schedule was reported
  Location at_;
  SourceRef running_;  // the source of the top-level statement running
  size_t first_run_ = 0;    // history().count() before this host
  RunTotals first_totals_;  // history().totals() before this host
  int depth_ = 0;            // scripts running inside scripts (:run)
  std::vector<std::string> statements_;
  std::function<bool(std::string_view)> pause_;
  std::function<void(const KernelView&)> view_;
};

}  // namespace tr::repl
