#include "repl/app/cli.h"

#include <fmt/format.h>

#include "core/base/error.h"

namespace tr::repl {
namespace {

int int_option(const std::string& flag, const std::string& text) {
  size_t used = 0;
  int v = 0;
  try {
    v = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) fail("usage", "{} expects a whole number, not '{}'", flag, text);
  return v;
}

class CommandLineReader {
 public:
  explicit CommandLineReader(const std::vector<std::string>& args) : args_(args) {}

  Options run() {
    while (i_ < args_.size()) {
      const std::string& a = args_[i_++];
      if (a == "--help" || a == "-h") set_mode(Mode::Help, a);
      else if (a == "--version" || a == "-V") set_mode(Mode::Version, a);
      else if (a == "--plain") set_mode(Mode::Plain, a);
      else if (a == "--json") o_.json = true;
      else if (a == "--noopt") o_.noopt = true;
      else if (a == "--online-softmax") o_.online_softmax = true;
      else if (a == "-e") code(value_of(a));
      else if (a == "--device") o_.device = value_of(a);
      else if (a == "--debug") o_.debug = int_option(a, value_of(a));
      else if (a == "--beam") o_.beam = int_option(a, value_of(a));
      else if (a == "--repeat") o_.repeat = int_option(a, value_of(a));
      else if (a == "--render") o_.render = value_of(a);
      else if (a.starts_with("--") && a.find('=') != std::string::npos) split_equals(a);
      else if (a == "run" && !script_seen_ && o_.mode == Mode::Repl) run_seen_ = true;
      else if (a == "-" || !a.starts_with("-")) script(a);
      else fail("usage", "unknown option '{}'", a);
    }
    if (run_seen_ && o_.mode != Mode::Script) fail("usage", "'run' expects a script: tinyrepl run FILE.tg");
    if (o_.json && o_.mode != Mode::Script && o_.mode != Mode::Code)
      fail("usage", "--json needs a script or -e CODE: tinyrepl run --json FILE.tg");
    return o_;
  }

 private:
  // --debug=2 and friends, as GNU tools accept them
  void split_equals(const std::string& a) {
    const size_t eq = a.find('=');
    const std::string flag = a.substr(0, eq), value = a.substr(eq + 1);
    if (flag == "--device") o_.device = value;
    else if (flag == "--debug") o_.debug = int_option(flag, value);
    else if (flag == "--beam") o_.beam = int_option(flag, value);
    else if (flag == "--repeat") o_.repeat = int_option(flag, value);
    else if (flag == "--render") o_.render = value;
    else fail("usage", "unknown option '{}'", a);
  }

  const std::string& value_of(const std::string& flag) {
    if (i_ >= args_.size()) fail("usage", "{} expects a value", flag);
    return args_[i_++];
  }

  void set_mode(Mode m, const std::string& why) {
    // --help and --version win over everything, as in most tools
    if (o_.mode == Mode::Help || o_.mode == Mode::Version) return;
    if (m != Mode::Help && m != Mode::Version && o_.mode != Mode::Repl)
      fail("usage", "'{}' cannot be combined with {}", why, described());
    o_.mode = m;
  }

  void code(const std::string& text) {
    set_mode(Mode::Code, "-e");
    o_.code = text;
  }

  void script(const std::string& path) {
    set_mode(Mode::Script, path);
    script_seen_ = true;
    o_.file = path;
  }

  std::string described() const {
    switch (o_.mode) {
      case Mode::Script: return fmt::format("the script '{}'", o_.file);
      case Mode::Code: return "-e";
      case Mode::Plain: return "--plain";
      // set_mode never asks about these: Repl is the form when none is chosen, and --help and --version win
      case Mode::Repl: case Mode::Help: case Mode::Version: break;
    }
    return "another form";
  }

  const std::vector<std::string>& args_;
  size_t i_ = 0;
  Options o_;
  bool run_seen_ = false, script_seen_ = false;
};

}  // namespace

Options parse_command_line(const std::vector<std::string>& args) { return CommandLineReader(args).run(); }

std::string version_text() { return fmt::format("tinyrepl {}\n", TINYREPL_VERSION); }

std::string usage_text() {
  return R"(usage: tinyrepl [OPTIONS]                 interactive session
       tinyrepl --plain [OPTIONS]         the plain line REPL (readline editing, history, completion)
       tinyrepl [run] [--json] FILE.tg    run a script and exit ("-" or /dev/stdin: standard input)
       tinyrepl [--json] -e 'CODE'        run CODE (statements separated by ';' or newlines)
       tinyrepl --help | --version

On a terminal, `tinyrepl` is the curses TUI (panes for the kernels, AST, UOps, source and timings)
in a build with it; otherwise, and with --plain, the plain REPL. With input from a pipe it runs every
line and prints each expression's value, as a Python shell does; its errors and its exit status are
those of `run -` (1: the first failure was an assert, 2: it was another error).

options:
  --device NAME    default device for new tensors (CPU, LLVM, OPENCL, QCOM, CUDA, NV, WEBGPU, METAL; NAME:N is instance N,
                   CPU:1 a second CPU, CUDA:1 the second GPU); env DEV
  --debug N        0..6: kernels run, one line per kernel, + AST, + source, + UOps, + UOps after
                   each lowering pass; env DEBUG
  --noopt          apply no kernel optimisations; env NOOPT=1
  --online-softmax fuse attention's softmax and matmul into one kernel (slower for now); env ONLINE_SOFTMAX=1
  --beam N         search kernel optimisations keeping the N fastest; env BEAM
  --repeat N       run every kernel N more times: min and median in the timings and --json
  --render LIST    backends whose source --debug 4 shows, e.g. c,opencl,metal,cuda
  --json           one JSON object per event on stdout (print, schedule, kernel, copy, assert,
                   error, source, summary)

exit status: 0 success, 1 a failed assert, 2 any other error (syntax, shape, device, compile, usage),
130 stopped by Ctrl-C.
In a session, :help lists the meta commands (:kernels, :ast, :uops, :src, :time, :step, :opt, ...).
)";
}

}  // namespace tr::repl
