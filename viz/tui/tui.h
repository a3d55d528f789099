#pragma once
// The curses TUI (SPEC section 6): Kernels, Timings, AST, UOps, Source and REPL panes over the
// session that a host runs. The TUI knows nothing of the .tg language: the host evaluates lines,
// completes words and finds the tensor an expression names; the TUI shows what the engine recorded.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/lazy/lazy.h"
#include "core/realize/realize.h"
#include "viz/kernel_view.h"
#include "viz/peaks.h"

namespace tr {

// What completes the word that ends at the cursor: the word starts at byte `start`; each candidate
// replaces all of it. With `files`, a file name goes there and readline completes paths.
struct TuiCompletion {
  size_t start = 0;
  std::vector<std::string> candidates{};
  bool files = false;
};

// Item K of the schedule that K numbers (:kernels, :ast K, :src K): a kernel or a copy, with how it
// ran; a kernel of a schedule that has not run (:kernels x) lowered as it would run.
struct TuiItem {
  RunRecord record{};
  bool ran = false;
};

// The schedule the panes show: the items of the statement selected in the host's schedule history
// (K numbers them), and where that statement stands in the history.
struct TuiSchedule {
  std::vector<TuiItem> items{};
  std::string statement{};  // as typed
  uint64_t number = 0;      // :history's number of it; 0 for a schedule outside the history (a :step's run)
  uint64_t newest = 0;      // :history's number of the newest statement kept
};

// What one input line did: all it printed, and whether it asked to leave (`:quit`); the schedule K
// numbers when the line changed it; the kernel and stage that `:ast K`, `:uops K`, `:src K` or
// `:diff K` asked for.
struct TuiOutput {
  std::string text{};
  bool quit = false;
  std::optional<TuiSchedule> schedule{};
  std::optional<KernelView> view{};
};

// The tensor an expression evaluates to, or why there is none ("x is an int", a syntax error).
struct TensorLookup {
  LazyRef tensor{};
  std::string error{};
};

struct TuiHost {
  // Runs one input line (statements or a meta command) as the plain REPL would: its output holds all
  // the line prints, values, errors with their caret, DEBUG lines. Nothing may go to the terminal
  // itself while the TUI runs (a run listener included). `:step` never reaches it: the TUI walks.
  std::function<TuiOutput(const std::string& line)> execute{};
  // The plain REPL's completion of the word that ends at byte `cursor` of `line`.
  std::function<TuiCompletion(const std::string& line, size_t cursor)> complete{};
  // The input so far needs another line (an open bracket, a trailing '\'), as the plain REPL asks.
  std::function<bool(const std::string& input)> continues{};
  // For `:step EXPR`: evaluates EXPR without realizing it.
  std::function<TensorLookup(const std::string& expr)> tensor_of{};
  // The named device's peaks where they are kept (the Roofline pane never measures: :roofline does),
  // and the folder they are kept in.
  std::function<std::optional<DevicePeaks>(const std::string& device)> peaks{};
  std::string peaks_kept_in{};
  // Selects the statement `step` away from the one whose schedule the panes show in the host's
  // schedule history (-1 the older, +1 the newer), as `:history N` does: its schedule, and an error
  // line when a kernel of it does not lower; nothing at either end. Called only while no line runs.
  std::function<std::optional<TuiOutput>(int step)> browse{};
  // Runs `work` (a step of the :step walk, whose last runs the schedule) as the statement `line`: what it
  // schedules and runs joins the host's schedule history. Called only while no line runs.
  std::function<void(const std::string& line, const std::function<void()>& work)> as_statement{};
  std::string history_file{};  // read at the start, written at the end, as the plain REPL does
};

// Runs until a line asks to quit or Ctrl-D on an empty input line; returns 0 then. Throws std::runtime_error
// when curses cannot drive the terminal, before drawing anything: the host may then go plain.
int run_tui(TuiHost& host);

}  // namespace tr
