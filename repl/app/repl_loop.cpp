#include "repl/app/repl_loop.h"

#include <iostream>

#include "repl/parser.h"

namespace tr::repl {

bool input_continues(std::string_view buffer) {
  size_t end = buffer.find_last_not_of(" \t\r");
  if (end != std::string_view::npos && buffer[end] == '\\') {
    // a backslash inside a comment continues nothing
    const size_t line_start = buffer.find_last_of('\n', end);
    const std::string_view line = buffer.substr(line_start == std::string_view::npos ? 0 : line_start + 1);
    if (line.find('#') == std::string_view::npos) return true;
  }
  return needs_more_input(buffer);
}

Status run_repl(Host& host, LineEditor& editor) {
  // A person's errors say "error:"; a pipe's name their line of standard input, as `run -` names them.
  const std::string file = editor.terminal() ? "" : std::string(kStdinName);
  std::string buffer;
  int lines_read = 0;
  int first_line = 1;  // the buffer's first line
  Status failure = Status::Ok;  // the first failure, which a pipe's session exits with
  const auto run = [&](const std::string& input) {
    const Status s = host.run_source(input, file, first_line);
    if (failure == Status::Ok && (s == Status::Error || s == Status::AssertFailed)) failure = s;
    return s;
  };
  while (true) {
    const Input in = editor.read(std::string(buffer.empty() ? kPrompt : kContinuation));
    if (in.kind == Input::Kind::End) break;
    if (in.kind == Input::Kind::Interrupt) {  // Ctrl-C drops the input, a continued one included
      buffer.clear();
      continue;
    }
    if (buffer.empty()) first_line = lines_read + 1;
    lines_read++;
    buffer += in.line;
    if (input_continues(buffer)) {
      buffer += '\n';
      continue;
    }
    const std::string input = std::move(buffer);
    buffer.clear();
    editor.remember(input);
    // with its newline, as a line of a script is read: `x +` ends at the end of a line
    const Status s = run(input + '\n');
    if (s == Status::Quit) return editor.terminal() ? Status::Quit : failure;
    // a person gets the prompt back; piped input has no one to return to
    if (s == Status::Interrupted && !editor.terminal()) return Status::Interrupted;
  }
  // the end of the input inside an open bracket (the buffer ends with its last line's newline): run it,
  // so that the error says what is missing
  if (buffer.find_first_not_of(" \t\n") != std::string::npos) run(buffer);
  if (editor.terminal()) std::cout << '\n';
  return editor.terminal() ? Status::Ok : failure;
}

}  // namespace tr::repl
