#include "repl/app/program.h"

#include <unistd.h>

#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "core/base/context.h"
#include "core/base/error.h"
#include "repl/app/cli.h"
#include "repl/app/files.h"
#include "repl/app/host.h"
#include "repl/app/line_editor.h"
#include "repl/app/repl_loop.h"
#include "repl/app/settings_input.h"
#include "repl/app/tui_session.h"
#include "repl/diagnostic.h"

namespace tr::repl {
namespace {

// The command line's settings over the environment's (core/base/context.h reads DEBUG, NOOPT, BEAM, DEV).
void apply_settings(const Options& o) {
  Settings& s = settings();
  if (o.debug) s.debug = bounded_int(std::to_string(*o.debug), 0, 6, "--debug");
  if (o.beam) s.beam = bounded_int(std::to_string(*o.beam), 0, 64, "--beam");
  if (o.repeat) s.repeat = bounded_int(std::to_string(*o.repeat), 0, kMaxRepeat, "--repeat");
  if (o.noopt) s.noopt = true;
  if (o.online_softmax) s.online_softmax = true;
  if (o.render) s.render = render_list(*o.render);
  // DEV=... is checked as --device is: a session on a device that cannot open would fail at every print
  s.device = usable_device(o.device ? *o.device : s.device);
}

constexpr bool tui_built() {
#ifdef TINYREPL_TUI
  return true;
#else
  return false;
#endif
}

std::string script_label(const std::string& path) { return path == "-" ? std::string(kStdinName) : path; }

int run_script(Host& host, const Options& o) {
  Status status = Status::Error;
  try {
    const std::string source = o.mode == Mode::Code ? o.code : read_text_file(o.file);
    status = host.run_source(source, o.mode == Mode::Code ? "-e" : script_label(o.file));
  } catch (const Error& e) {
    host.report(e);
  }
  host.finish();
  return exit_code(status);
}

int run_session(Host& host, std::istream& in, std::ostream& out, bool terminal, Mode mode) {
  LineEditor editor(in, terminal, [&host](std::string_view line, size_t cursor) {
    return complete(line, cursor, host.session());
  });
  if (terminal) {
    host.set_pause([&editor](std::string_view next) {
      const Input answer = editor.read_answer(fmt::format("[Enter: {} · q: stop] ", next));
      if (answer.kind != Input::Kind::Line) return false;
      if (answer.line.empty()) return true;
      // anything else stops the walk too; a statement typed there runs next, as at the prompt
      if (answer.line != "q") editor.push_back(answer.line);
      return false;
    });
    out << "tinyrepl " << TINYREPL_VERSION
        << (mode == Mode::Repl && !tui_built() ? " (plain REPL: this build has no TUI)" : "")
        << " · :help for the commands, Ctrl-D to leave\n";
  }
  const Status status = run_repl(host, editor);
  host.finish();
  return exit_code(status);
}

}  // namespace

int run_program(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err,
                bool terminal) {
  Options o;
  try {
    o = parse_command_line(args);
  } catch (const Error& e) {
    err << format_error("", "", 0, 0, 0, e.what()) << "usage: tinyrepl --help\n";
    return 2;
  }
  if (o.mode == Mode::Help) {
    out << usage_text();
    return 0;
  }
  if (o.mode == Mode::Version) {
    out << version_text();
    return 0;
  }
  const bool script = o.mode == Mode::Script || o.mode == Mode::Code;
  const bool tui = tui_built() && o.mode == Mode::Repl && terminal && isatty(STDOUT_FILENO);
  // the bar writes to the terminal itself: never under the TUI, into --json, or into a pipe
  std::optional<ProgressBar> bar;
  if (!tui && !o.json && &err == &std::cerr && isatty(STDERR_FILENO)) bar.emplace(STDERR_FILENO);
  const bool color = !tui && !o.json && &out == &std::cout && isatty(STDOUT_FILENO);
  Host host(HostConfig{.json = o.json, .echo = !script, .bar = bar ? &*bar : nullptr, .color = color}, out, err);
  try {
    apply_settings(o);
  } catch (const Error& e) {
    host.report(e);
    if (script) host.finish();
    return 2;
  }
  if (script) return run_script(host, o);
#ifdef TINYREPL_TUI
  if (tui)
    if (const std::optional<int> status = run_tui_session(host, out, err)) return *status;
#endif
  return run_session(host, in, out, terminal, o.mode);
}

}  // namespace tr::repl
