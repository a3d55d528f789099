#pragma once
// Plain output: values and DEBUG lines on one stream, errors with their caret on the other.
#include <ostream>

#include "repl/app/progress_bar.h"
#include "repl/app/reporter.h"
#include "viz/debug_output.h"

namespace tr::repl {

std::string format_diagnostic(const Diagnostic& d);

class TextReporter : public Reporter {
 public:
  // bar: the progress bar on the terminal, erased before each write; null when there is none
  // color: DEBUG lines in ANSI colours (out is a terminal)
  TextReporter(std::ostream& out, std::ostream& err, ProgressBar* bar, bool color = false)
      : out_(out), err_(err), bar_(bar), debug_(color) {}

  void print(const PrintEvent& e, const Location& at) override;
  void schedule(const Realization& r, const Location& at) override;
  void run(const RunRecord& r, const Location& at) override;
  void assertion(const Location& at, const Diagnostic* failure) override;
  void error(const Diagnostic& d) override;
  void roofline(const Roofline& r, std::string_view svg_file, const Location& at) override;
  void output(std::string_view command, std::string_view text, const Location& at) override;
  void finish(const RunTotals& totals) override;

 private:
  std::unique_lock<std::mutex> hold_bar();

  std::ostream& out_;
  std::ostream& err_;
  ProgressBar* bar_;
  DebugOutput debug_;
};

}  // namespace tr::repl
