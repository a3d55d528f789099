// libFuzzer: any bytes through the lexer and the parser. Bad input must end in a SourceError (or
// tr::Error) with a position, never a crash, a hang or another exception.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "repl/lexer.h"
#include "repl/parser.h"
#include "repl/source_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // longer inputs only find the same paths more slowly
  if (size > 4096) return 0;
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  try {
    tr::repl::lex(source);
  } catch (const tr::Error&) {
  }
  try {
    tr::repl::parse_program(source);
  } catch (const tr::Error&) {
  }
  try {
    tr::repl::parse_expression(source);
  } catch (const tr::Error&) {
  }
  return 0;
}
