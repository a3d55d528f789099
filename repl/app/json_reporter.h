#pragma once
// --json: one object per event on stdout (SPEC section 5). Errors also go to stderr as text, so that a
// person reading a CI log sees them with their caret.
#include <ostream>

#include "repl/app/reporter.h"

namespace tr::repl {

class JsonReporter : public Reporter {
 public:
  JsonReporter(std::ostream& out, std::ostream& err) : out_(out), err_(err) {}

  void print(const PrintEvent& e, const Location& at) override;
  void schedule(const Realization& r, const Location& at) override;
  void run(const RunRecord& r, const Location& at) override;
  void assertion(const Location& at, const Diagnostic* failure) override;
  void error(const Diagnostic& d) override;
  void roofline(const Roofline& r, std::string_view svg_file, const Location& at) override;
  void output(std::string_view command, std::string_view text, const Location& at) override;
  void finish(const RunTotals& totals) override;

 private:
  template <typename J>
  void emit(const J& j) {
    // a byte that is not UTF-8 (typed, or in a file) becomes U+FFFD: JSON holds only Unicode
    out_ << j.dump(-1, ' ', false, J::error_handler_t::replace) << '\n' << std::flush;
  }

  std::ostream& out_;
  std::ostream& err_;
};

}  // namespace tr::repl
