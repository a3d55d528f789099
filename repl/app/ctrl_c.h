#pragma once
// The program's SIGINT handler, for its whole life: Ctrl-C raises the engine's interrupt flag
// (core/base/interrupt.h), which the prompt takes as "drop this line" and running work as "stop". A
// Ctrl-C that comes while an earlier one has waited unanswered for 3 s ends the program (exit 130):
// work that checks nothing can still be left.
namespace tr::repl {

void catch_ctrl_c();

}  // namespace tr::repl
