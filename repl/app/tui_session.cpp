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

// The items of the schedule that K numbers, each as it ran or lowered now.
std::vector<TuiItem> schedule_items(Focus& focus) {
  std::vector<TuiItem> items;
  for (int k = 0; k < static_cast<int>(focus.schedule().size()); k++) {
    const ScheduleItem& item = focus.schedule()[static_cast<size_t>(k)];
    const RunRecord* run = focus.run(k);
    TuiItem t{.record = run ? *run : RunRecord{}, .ran = run != nullptr};
    if (item.kind == ScheduleItem::Kind::Kernel) {
      t.record.kernel = focus.kernel(k);
    } else if (!run) {
      t.record.is_copy = true;
      t.record.copy.from = item.inputs.empty() ? "HOST" : item.inputs[0]->device;
      t.record.copy.to = item.outputs[0]->device;
    }
    items.push_back(std::move(t));
  }
  return items;
}

}  // namespace

std::optional<int> run_tui_session(Host& host, std::ostream& out, std::ostream& err) {
  std::stringstream shown;
  std::optional<int> status;
  std::optional<KernelView> view;
  host.set_viewer([&](const KernelView& v) { view = v; });
  uint64_t seen = host.focus().version();
  try {
    const Redirect to_pane(out, shown.rdbuf()), errors_to_pane(err, shown.rdbuf());
    TuiHost tui{
        .execute = [&](const std::string& line) {
          view.reset();
          const bool quit = host.run_source(line, "") == Status::Quit;
          TuiOutput output{.text = shown.str(), .quit = quit, .view = view};
          shown.str("");
          if (host.focus().version() != seen) {
            seen = host.focus().version();
            try {
              output.schedule = schedule_items(host.focus());
            } catch (const Error& e) {  // a kernel of :kernels x that does not lower
              output.text += fmt::format("error: {}\n", e.what());
              output.schedule = std::vector<TuiItem>{};
            }
          }
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
