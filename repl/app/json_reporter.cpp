#include "repl/app/json_reporter.h"

#include "core/base/context.h"
#include "repl/app/json_events.h"
#include "repl/app/text_reporter.h"
#include "core/runtime/device.h"

namespace tr::repl {

void JsonReporter::print(const PrintEvent& e, const Location& at) { emit(print_json(e, at)); }

void JsonReporter::schedule(const Realization& r, const Location& at) { emit(schedule_json(r, at)); }

void JsonReporter::run(const RunRecord& r, const Location& at) {
  emit(run_json(r, at));
  if (r.is_copy || settings().debug < 4) return;
  const std::vector<std::string>& render = settings().render;
  if (render.empty()) {
    emit(source_json(r.kernel, device(r.kernel.device).backend(), at));
  }
  for (const std::string& b : render) emit(source_json(r.kernel, b, at));
}

void JsonReporter::assertion(const Location& at, const Diagnostic* failure) {
  emit(assert_json(at, failure));
  if (failure) err_ << format_diagnostic(*failure) << std::flush;
}

void JsonReporter::error(const Diagnostic& d) {
  emit(error_json(d));
  err_ << format_diagnostic(d) << std::flush;
}

void JsonReporter::roofline(const Roofline& r, std::string_view svg_file, const Location& at) {
  emit(roofline_json(r, svg_file, at));
}

void JsonReporter::output(std::string_view command, std::string_view text, const Location& at) {
  emit(output_json(command, text, at));
}

void JsonReporter::finish(const RunTotals& totals) { emit(summary_json(totals)); }

}  // namespace tr::repl
