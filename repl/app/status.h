#pragma once
// How a statement, a script or a session ended, and the exit status it gives (SPEC section 1).
namespace tr::repl {

enum class Status {
  Ok,
  AssertFailed,  // exit status 1
  Error,         // exit status 2: syntax, shape, device, compile, a missing file, a bad command
  Quit,          // :quit: stop here, successfully
  Interrupted,   // Ctrl-C: exit status 130, as a shell reports a program that SIGINT ended
};

inline int exit_code(Status s) {
  switch (s) {
    case Status::AssertFailed: return 1;
    case Status::Error: return 2;
    case Status::Interrupted: return 130;
    case Status::Ok:
    case Status::Quit: break;
  }
  return 0;
}

}  // namespace tr::repl
