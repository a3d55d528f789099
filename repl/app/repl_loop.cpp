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
  std::string buffer;
  while (true) {
    const Input in = editor.read(std::string(buffer.empty() ? kPrompt : kContinuation));
    if (in.kind == Input::Kind::End) break;
    if (in.kind == Input::Kind::Interrupt) {  // Ctrl-C drops the input, a continued one included
      buffer.clear();
      continue;
    }
    buffer += in.line;
    if (input_continues(buffer)) {
      buffer += '\n';
      continue;
    }
    const std::string input = std::move(buffer);
    buffer.clear();
    editor.remember(input);
    const Status s = host.run_source(input, "");
    if (s == Status::Quit) return Status::Quit;
    // a person gets the prompt back; piped input has no one to return to
    if (s == Status::Interrupted && !editor.terminal()) return Status::Interrupted;
  }
  // the end of the input inside an open bracket: run it, so that the error says what is missing
  if (buffer.find_first_not_of(" \t\n") != std::string::npos) host.run_source(buffer, "");
  if (editor.terminal()) std::cout << '\n';
  return Status::Ok;
}

}  // namespace tr::repl
