#pragma once
// LLVM IR with a line table of its own text: every instruction gets a debug location naming its line,
// so that clang's object maps each machine instruction back to the IR line that made it. Only :asm
// compiles it, and takes its lines only where it made the same instructions as the IR without them.
#include <string>

namespace tr {

std::string with_line_table(const std::string& ir);

}  // namespace tr
