#pragma once
// Where the events of a run go: text for a person (stdout, errors on stderr) or one JSON object per
// event (--json). The host decides what happens; a reporter only decides how it looks.
#include <string>
#include <string_view>
#include <vector>

#include "core/realize/realize.h"
#include "viz/roofline.h"
#include "repl/print_event.h"
#include "repl/span.h"

namespace tr::repl {

// The statement an event comes from.
struct Location {
  std::string file;  // "" in an interactive session
  int line = 0;      // 0: not from a statement
};

// An error, or a failed assert, tied to a place in the source.
struct Diagnostic {
  std::string kind;
  std::string message;
  std::string file;         // "" in an interactive session: the text starts with "error:"
  std::string source_line;  // the line the caret goes under
  Span span{};
  // For an error inside a function: each call that led there, innermost first ("f.tg:7:1").
  std::vector<std::string> called_from;
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void print(const PrintEvent& e, const Location& at) = 0;
  // A realize has started to run its schedule.
  virtual void schedule(const Realization& r, const Location& at) = 0;
  virtual void run(const RunRecord& r, const Location& at) = 0;
  // failure is null when the assert holds.
  virtual void assertion(const Location& at, const Diagnostic* failure) = 0;
  virtual void error(const Diagnostic& d) = 0;
  // :roofline's figures; svg_file names the picture it wrote, or is "".
  virtual void roofline(const Roofline& r, std::string_view svg_file, const Location& at) = 0;
  // What a meta command shows, or an interactive session's echo of a value.
  virtual void output(std::string_view command, std::string_view text, const Location& at) = 0;
  // The end of a script or session: DEBUG's avg line, --json's summary of the session's runs.
  virtual void finish(const RunTotals& totals) = 0;
};

}  // namespace tr::repl
