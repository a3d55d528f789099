#include "repl/app/host.h"

#include <cctype>
#include <new>

#include "core/base/error.h"
#include "core/base/interrupt.h"
#include "core/realize/realize.h"
#include "repl/app/json_reporter.h"
#include "repl/app/meta.h"
#include "repl/app/text_reporter.h"
#include "repl/diagnostic.h"
#include "repl/line_index.h"
#include "repl/parser.h"
#include "repl/source_error.h"
#include "repl/value_format.h"

namespace tr::repl {
namespace {

// A script that runs itself through :run would otherwise recurse until the stack runs out.
constexpr int kMaxDepth = 16;

std::unique_ptr<Reporter> make_reporter(const HostConfig& config, std::ostream& out, std::ostream& err) {
  if (config.json) return std::make_unique<JsonReporter>(out, err);
  return std::make_unique<TextReporter>(out, err, config.bar, config.color);
}

// A span of source (whose lines are its file's) with the lines of source's own text.
Span in_text(const SourceText& source, Span span) {
  return Span{span.line - source.first_line + 1, span.col, span.len};
}

// Statement i's text: from its first token to the next statement's, without the separators.
std::string statement_text(const SourceText& source, const LineIndex& lines, const std::vector<Stmt>& stmts, size_t i) {
  const size_t begin = lines.offset(in_text(source, text_start(stmts[i])));
  const size_t end =
      i + 1 < stmts.size() ? lines.offset(in_text(source, text_start(stmts[i + 1]))) : source.text.size();
  std::string_view t = std::string_view(source.text).substr(begin, end - begin);
  while (!t.empty() && (std::isspace(static_cast<unsigned char>(t.back())) || t.back() == ';')) t.remove_suffix(1);
  return std::string(t);
}

// What :save keeps: the statements that compute, and the commands that change how they run.
bool worth_saving(const Stmt& s) {
  const Meta* m = std::get_if<Meta>(&s.node);
  if (!m) return true;
  // a setting without its value only shows it
  for (std::string_view keep : {"device", "render", "debug", "noopt", "online_softmax", "beam", "run"})
    if (m->name == keep) return !m->args.empty();
  return false;
}

// Stops a program from inside a compound statement or a function: a failed assert, a failed or
// quitting meta command. It is no tr::Error, so nothing on the way out mistakes it for one.
struct Halt {
  Status status;
};

Diagnostic diagnostic(const std::string& kind, const std::string& message, const SourceText& source, Span span) {
  return Diagnostic{kind, message, source.file, std::string(source_line(source.text, in_text(source, span).line)), span,
                    {}};
}

std::string site_name(const CallSite& c) {
  const std::string file = c.source && !c.source->file.empty() ? c.source->file : "<input>";
  return fmt::format("{}:{}:{}", file, c.span.line, c.span.col);
}

}  // namespace

Host::Host(HostConfig config, std::ostream& out, std::ostream& err)
    : config_(config),
      reporter_(make_reporter(config, out, err)),
      session_([this](const PrintEvent& e) { reporter_->print(e, at_); },
               [this](const Outcome& o, const Stmt& s) { nested_outcome(o, s); }),
      first_run_(history().count()),
      first_totals_(history().totals()) {
  set_run_listener([this](const RunRecord& r) { on_run(r); });
}

Host::~Host() { set_run_listener(nullptr); }

Status Host::run_source(std::string_view source, const std::string& file, int first_line) {
  if (depth_ >= kMaxDepth) fail("value", "scripts run inside each other {} deep: does one run itself?", kMaxDepth);
  depth_++;
  // the prompt that follows must not be erased by the progress bar
  struct Leave {
    int& depth;
    ProgressBar* bar;
    ~Leave() {
      if (--depth == 0 && bar) bar->hold();
    }
  } leave{depth_, config_.bar};
  const SourceRef src = std::make_shared<const SourceText>(SourceText{file, std::string(source), first_line});
  std::vector<Stmt> stmts;
  try {
    stmts = parse_program(source, first_line);
  } catch (const SourceError& e) {
    report(e.kind(), e.what(), e.span(), *src);
    return Status::Error;
  }
  const LineIndex lines(source);
  for (size_t i = 0; i < stmts.size(); i++) {
    std::string text = statement_text(*src, lines, stmts, i);
    const Status s = interrupted() ? interrupt(stmts[i].span, src) : execute(stmts[i], src, text);
    if (s != Status::Ok) return s;
    if (depth_ == 1 && worth_saving(stmts[i])) statements_.push_back(std::move(text));
  }
  return Status::Ok;
}

Status Host::guarded(const Stmt& stmt, const SourceRef& src, const std::function<Status()>& body) {
  try {
    return body();
  } catch (const Halt& h) {
    return h.status;
  } catch (const SourceError& e) {
    if (is_interrupt(e)) return interrupt(e.span(), src);
    report(e, src);
  } catch (const Error& e) {
    if (is_interrupt(e)) return interrupt(stmt.span, src);
    report(e.kind(), e.what(), stmt.span, *src);
  } catch (const std::bad_alloc&) {
    report("memory", "out of memory", stmt.span, *src);
  } catch (const std::exception& e) {
    report("internal", e.what(), stmt.span, *src);
  }
  return Status::Error;
}

Status Host::execute(const Stmt& stmt, const SourceRef& src, std::string text) {
  const Location outer = at_;
  at_ = Location{src->file, stmt.span.line};
  const SourceRef outer_source = std::exchange(running_, src);
  schedules_.begin_statement(std::move(text));
  Status status = guarded(stmt, src, [&] {
    const Outcome o = session_.execute(stmt, src);
    // a replay's records wait for its device until here at the latest: the statement's output, the
    // panes and a Ctrl-C after it see every run
    settle_runs();
    return outcome(o, stmt, src);
  });
  // a statement that failed after a replay left its records waiting: what waiting for them raises (a
  // device's error, a Ctrl-C) is the statement's too
  const Status settled = guarded(stmt, src, [] {
    settle_runs();
    return Status::Ok;
  });
  if (status == Status::Ok) status = settled;
  schedules_.end_statement();
  at_ = outer;
  running_ = outer_source;
  return status;
}

Status Host::outcome(const Outcome& o, const Stmt& stmt, const SourceRef& src) {
  if (const Shown* shown = std::get_if<Shown>(&o)) {
    if (config_.echo && depth_ == 1) {
      reporter_->output("", repr_value(shown->value), at_);
      session_.set_last_shown(shown->value);
    }
  } else if (const AssertResult* a = std::get_if<AssertResult>(&o)) {
    if (a->ok) {
      reporter_->assertion(at_, nullptr);
    } else {
      const Diagnostic d = diagnostic("assert", a->message, a->source ? *a->source : *src, a->span);
      reporter_->assertion(at_, &d);
      return Status::AssertFailed;
    }
  } else if (const Meta* m = std::get_if<Meta>(&o)) {
    return run_meta(*this, *m, stmt.span);
  }
  return Status::Ok;
}

void Host::nested_outcome(const Outcome& o, const Stmt& stmt) {
  const Status s = outcome(o, stmt, running_);
  if (s != Status::Ok) throw Halt{s};
}

// Ctrl-C is answered once: the flag goes down when it is reported.
Status Host::interrupt(Span span, const SourceRef& src) {
  clear_interrupt();
  report("interrupt", "KeyboardInterrupt", span, *src);
  return Status::Interrupted;
}

void Host::report(const SourceError& e, const SourceRef& src) {
  Diagnostic d = diagnostic(e.kind(), e.what(), e.origin() ? *e.origin() : *src, e.span());
  // a recursion's repeated call site is one line with its count, as Python folds a repeated frame
  size_t repeats = 0;
  for (size_t i = 0; i < e.calls().size(); i++) {
    const std::string site = site_name(e.calls()[i]);
    if (i + 1 < e.calls().size() && site_name(e.calls()[i + 1]) == site) {
      repeats++;
      continue;
    }
    d.called_from.push_back(repeats ? fmt::format("{} ({} times)", site, repeats + 1) : site);
    repeats = 0;
  }
  reporter_->error(d);
}

void Host::report(const std::string& kind, const std::string& message, Span span, const SourceText& source) {
  reporter_->error(diagnostic(kind, message, source, span));
}

void Host::report(const Error& e) { reporter_->error(Diagnostic{e.kind(), e.what(), "", "", Span{}, {}}); }

void Host::finish() { reporter_->finish(session_totals()); }

std::vector<RunRecord> Host::session_runs() const { return history().since(first_run_); }

RunTotals Host::session_totals() const { return history().totals().since(first_totals_); }

void Host::show(std::string_view command, std::string_view text) { reporter_->output(command, text, at_); }

void Host::show_roofline(const Roofline& r, std::string_view svg_file) { reporter_->roofline(r, svg_file, at_); }

bool Host::pause(std::string_view next_stage) const { return !pause_ || pause_(next_stage); }

void Host::reset() {
  session_.reset();
  statements_.clear();
}

void Host::on_run(const RunRecord& r) {
  const Realization& now = last_realization();
  // the first record of a realize: its schedule has just been made (a host copy that read_back
  // records after a realize is none of its runs)
  if (!now.runs.empty() && now.number != reported_) {
    reported_ = now.number;
    reporter_->schedule(now, at_);
    schedules_.add_schedule(now.schedule);
  }
  schedules_.add_run(r);
  reporter_->run(r, at_);
}

}  // namespace tr::repl
