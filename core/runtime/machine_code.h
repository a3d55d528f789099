#pragma once
// A kernel's machine code as its backend's compiler makes it, read back by a disassembler. The devices
// register how for each backend (devices/disassemblers.cpp): core compiles no code and runs no tool.
// :asm and the Source pane's Asm tab print it (viz/asm_view.h).
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/uops.h"

namespace tr {

struct AsmInstruction {
  std::string function{};  // the symbol it belongs to, as the object names it
  uint64_t address = 0;  // its offset in the object, as the disassembler prints it
  std::string text{};      // the instruction as the disassembler spells it
  int line = 0;          // the line of the backend's source that made it (1: its first), 0 where unknown
};

struct MachineCode {
  std::vector<AsmInstruction> instructions{};
  // What was disassembled, by which tool, and how it relates to the code that runs; where the line
  // numbers come from, or why there are none.
  std::string origin{};
  std::string lines{};
  std::string numbered{};  // the text the compiler read, whose lines `line` counts (the source, then any entry)
  std::string absent{};  // why there is no machine code; "" when `instructions` holds it
};

// Compiles program's source (rendered for the backend) as the backend's device compiles it and
// disassembles the result, or says why it cannot. It may throw tr::Error("compile").
using Disassembler = std::function<MachineCode(const UOpProgram& program, const std::string& source)>;

void register_disassembler(std::string backend, Disassembler d);
// The backend's machine code for the program; a backend with no disassembler registered says so.
MachineCode machine_code(std::string_view backend, const UOpProgram& program, const std::string& source);

}  // namespace tr
