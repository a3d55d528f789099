#include "viz/asm_view.h"

#include <fmt/format.h>

#include "core/render/render.h"
#include "core/runtime/device.h"
#include "core/runtime/machine_code.h"
#include "viz/backend_lowering.h"

namespace tr {
namespace {

std::vector<std::string> source_lines(const std::string& source) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < source.size()) {
    const size_t end = std::min(source.find('\n', at), source.size());
    out.push_back(source.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

std::string listing(const MachineCode& m) {
  const std::vector<std::string> lines = source_lines(m.numbered);
  std::string out, function;
  int line = 0;
  for (const AsmInstruction& i : m.instructions) {
    if (i.function != function) {
      function = i.function;
      line = 0;
      out += fmt::format("{}:\n", function);
    }
    if (i.line != line && i.line > 0) {
      const auto at = static_cast<size_t>(i.line - 1);
      out += fmt::format("{:>5} │ {}\n", i.line, at < lines.size() ? lines[at] : "");
    }
    line = i.line;
    out += fmt::format("        {:>6x}  {}\n", i.address, i.text);
  }
  return out;
}

}  // namespace

std::string ran_backend(const KernelRecord& r) { return device(r.device).backend(); }

std::string asm_text(const KernelRecord& r, std::string_view backend) {
  const std::string comment(line_comment(backend_info(backend).syntax));
  const bool ran = backend == ran_backend(r);
  const BackendLowering other = ran ? BackendLowering{} : lowering_for_backend(r, backend);
  const UOpProgram& program = ran ? *r.program : other.program;
  const std::string& source = ran ? *r.source : other.source.text;
  const MachineCode m = machine_code(backend, program, source);
  std::string head = fmt::format("{}{}: ", comment, backend);
  if (!ran)
    head += (other.note.empty() ? fmt::format("not the code that ran (kernel {} ran on {}): the same UOps rendered for this backend",
                                              r.name, r.device)
                                : "not the code that ran: " + other.note) +
            "\n" + comment;
  if (!m.absent.empty()) return head + m.absent + "\n";
  return head + m.origin + "\n" + comment + m.lines + "\n" + listing(m);
}

}  // namespace tr
