#include "repl/app/text_reporter.h"

#include <fmt/format.h>

#include "core/base/context.h"
#include "repl/diagnostic.h"

namespace tr::repl {

std::string format_diagnostic(const Diagnostic& d) {
  std::string out = format_error(d.file, d.source_line, d.span.line, d.span.col, d.span.len, d.message);
  for (const std::string& site : d.called_from) out += "  called from " + site + "\n";
  return out;
}

std::unique_lock<std::mutex> TextReporter::hold_bar() {
  return bar_ ? bar_->hold() : std::unique_lock<std::mutex>{};
}

void TextReporter::print(const PrintEvent& e, const Location&) {
  const auto quiet = hold_bar();
  out_ << e.text << '\n' << std::flush;
}

void TextReporter::schedule(const Realization& r, const Location&) {
  const auto quiet = hold_bar();
  out_ << debug_.on_schedule(r, settings().debug) << std::flush;
}

void TextReporter::run(const RunRecord& r, const Location&) {
  const auto quiet = hold_bar();
  out_ << debug_.on_run(r, settings().debug, settings().render) << std::flush;
}

void TextReporter::assertion(const Location&, const Diagnostic* failure) {
  if (failure) error(*failure);
}

void TextReporter::error(const Diagnostic& d) {
  const auto quiet = hold_bar();
  // stdout first, so that on a shared terminal the error comes after what led to it
  out_ << std::flush;
  // as Python's shell says it: no position, since the statement was stopped wherever it was
  if (d.kind == "interrupt") err_ << "KeyboardInterrupt\n" << std::flush;
  else err_ << format_diagnostic(d) << std::flush;
}

void TextReporter::roofline(const Roofline& r, std::string_view svg_file, const Location& at) {
  const std::string wrote =
      svg_file.empty() ? "" : fmt::format("wrote {}: the roofs and {} kernels\n", svg_file, r.points.size());
  output("roofline", roofline_text(r) + wrote, at);
}

void TextReporter::output(std::string_view, std::string_view text, const Location&) {
  const auto quiet = hold_bar();
  out_ << text;
  if (!text.empty() && text.back() != '\n') out_ << '\n';
  out_ << std::flush;
}

// DebugOutput has counted the runs as they came, at the levels they came at
void TextReporter::finish(const RunTotals&) {
  const auto quiet = hold_bar();
  out_ << debug_.summary(settings().debug) << std::flush;
}

}  // namespace tr::repl
