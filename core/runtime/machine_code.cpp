#include "core/runtime/machine_code.h"

#include <map>

#include <fmt/format.h>

namespace tr {
namespace {

std::map<std::string, Disassembler, std::less<>>& disassemblers() {
  static std::map<std::string, Disassembler, std::less<>> table;
  return table;
}

}  // namespace

void register_disassembler(std::string backend, Disassembler d) { disassemblers()[std::move(backend)] = std::move(d); }

MachineCode machine_code(std::string_view backend, const UOpProgram& program, const std::string& source) {
  const auto it = disassemblers().find(backend);
  if (it == disassemblers().end())
    return {.absent = fmt::format("no disassembler knows the {} backend's compiled code", backend)};
  return it->second(program, source);
}

}  // namespace tr
