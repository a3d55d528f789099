#pragma once
// Reading machine code back: the disassemblers' listings parsed into instructions with their source
// lines, and the objects compiled for them. devices/disassemblers.cpp registers them per backend.
#include <optional>
#include <string>
#include <vector>

#include "core/runtime/machine_code.h"

namespace tr {

// `objdump -d [-l] --no-show-raw-insn`'s listing: each function's instructions, with the line of
// `source_file` ("kernel.c") that the line table gives each one where it was asked for.
std::vector<AsmInstruction> parse_objdump(const std::string& listing, const std::string& source_file);
// `nvdisasm -c [-g]`'s listing (or `cuobjdump -sass`'s, which has no lines): each kernel's SASS.
std::vector<AsmInstruction> parse_nvdisasm(const std::string& listing);

// The same instructions at the same addresses: a compile with line tables made the code that ran.
bool same_code(const std::vector<AsmInstruction>& a, const std::vector<AsmInstruction>& b);

// The path of a program on PATH; nullopt where it is not there.
std::optional<std::string> on_path(const std::string& name);
// A CUDA toolkit program (nvdisasm, cuobjdump, ptxas) on PATH or in the bin folder of $CUDA_HOME,
// $CUDA_PATH or /usr/local/cuda; nullopt where none has it.
std::optional<std::string> cuda_tool(const std::string& name);
// Where cuda_tool looks, for the reason it gives when a tool is missing.
std::string cuda_tool_places();

}  // namespace tr
