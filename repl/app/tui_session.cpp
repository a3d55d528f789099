#ifdef TINYREPL_TUI
#include "repl/app/tui_session.h"

#include <sstream>

#include <fmt/format.h>

#include "repl/app/completion.h"
#include "repl/app/line_editor.h"
#include "repl/app/peak_store.h"
#include "repl/app/repl_loop.h"
#include "repl/diagnostic.h"
#include "repl/parser.h"
#include "repl/source_error.h"
#include "viz/tui/tui.h"

namespace tr::repl {
namespace {

// Points a stream at another buffer while it lives.
class Redirect {
 public:
  Redirect(std::ostream& s, std::streambuf* to) : s_(s), old_(s.rdbuf(to)) {}
  ~Redirect() { s_.rdbuf(old_); }
  Redirect(const Redirect&) = delete;
  Redirect& operator=(const Redirect&) = delete;

 private:
  std::ostream& s_;
  std::streambuf* old_;
};

TensorLookup tensor_of(Session& session, const std::string& expr) {
  try {
    const Value v = session.evaluate(*parse_expression(expr));
    if (const Tensor* t = v.get_if<Tensor>()) return {.tensor = t->node()};
    return {.error = format_error("", "", 0, 0, 0, fmt::format("{} is a {}, not a tensor", expr, type_name(v)))};
  } catch (const SourceError& e) {
    return {.error = format_error("", expr, e.span().line, e.span().col, e.span().len, e.what())};
  } catch (const Error& e) {
    return {.error = format_error("", "", 0, 0, 0, e.what())};
  }
}

// The selected statement's items that K numbers, each as it ran, as :opt left it, or lowered now.
TuiSchedule selected_schedule(ScheduleHistory& history) {
  TuiSchedule out;
  if (const StatementSchedule* s = history.selected()) {
    out.statement = s->statement;
    out.number = s->number;
    out.newest = history.entries().back().number;
  }
  for (int k = 0; k < static_cast<int>(history.size()); k++) {
    const KeptItem& item = history.item(k);
    const RunRecord* run = history.run(k);
    TuiItem t{.record = run ? *run : RunRecord{}, .ran = run != nullptr};
    if (item.is_kernel()) {
      t.record.is_copy = false;
      t.record.kernel = history.kernel(k);
    } else if (!run) {
      t.record.is_copy = true;
      t.record.copy.from = item.scheduled->inputs.empty() ? "HOST" : item.scheduled->inputs[0]->device;
      t.record.copy.to = item.scheduled->outputs[0]->device;
    }
    out.items.push_back(std::move(t));
  }
  return out;
}

}  // namespace

std::optional<int> run_tui_session(Host& host, std::ostream& out, std::ostream& err) {
  std::stringstream shown;
  std::optional<int> status;
  std::optional<KernelView> view;
  host.set_viewer([&](const KernelView& v) { view = v; });
  uint64_t seen = host.schedules().version();
  // what the panes get when the host's selection changed: a kernel of :kernels x that does not lower
  // is an error line, and no schedule
  const auto schedule_now = [&](std::string& text) {
    seen = host.schedules().version();
    try {
      return selected_schedule(host.schedules());
    } catch (const Error& e) {
      text += fmt::format("error: {}\n", e.what());
      return TuiSchedule{};
    }
  };
  try {
    const Redirect to_pane(out, shown.rdbuf()), errors_to_pane(err, shown.rdbuf());
    TuiHost tui{
        .execute = [&](const std::string& line) {
          view.reset();
          const bool quit = host.run_source(line, "") == Status::Quit;
          TuiOutput output{.text = shown.str(), .quit = quit, .view = view};
          shown.str("");
          if (host.schedules().version() != seen) output.schedule = schedule_now(output.text);
          return output;
        },
        .complete = [&](const std::string& line, size_t cursor) {
          Completion c = complete(line, cursor, host.session());
          return TuiCompletion{.start = c.start, .candidates = std::move(c.candidates), .files = c.files};
        },
        .continues = input_continues,
        .tensor_of = [&](const std::string& expr) { return tensor_of(host.session(), expr); },
        .peaks = [store = disk_peak_store()](const std::string& device) { return kept_peaks(tr::device(device), store); },
        .peaks_kept_in = disk_peak_store().where,
        .browse = [&](int step) -> std::optional<TuiOutput> {
          if (!host.schedules().step(step)) return std::nullopt;
          TuiOutput output;
          output.schedule = schedule_now(output.text);
          return output;
        },
        .as_statement = [&](const std::string& line, const std::function<void()>& work) {
          host.schedules().begin_statement(line);
          work();
          host.schedules().end_statement();
        },
        .history_file = history_path(),
    };
    status = run_tui(tui);
  } catch (const std::runtime_error& e) {
    host.set_viewer({});
    err << "tinyrepl: " << e.what() << ": the plain REPL instead\n";
    return std::nullopt;
  }
  host.set_viewer({});
  host.finish();
  return status;
}

}  // namespace tr::repl
#endif
