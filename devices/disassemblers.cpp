// How each backend's compiled code is read back for :asm: the CPU and LLVM devices' shared objects by
// objdump, CUDA's and PTX's cubins by nvdisasm (or cuobjdump) from the CUDA toolkit; the backends whose
// code only a driver sees say so.
#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/base/error.h"
#include "core/base/interrupt.h"
#include "core/runtime/device.h"
#include "core/runtime/machine_code.h"
#include "devices/cuda_device.h"
#include "devices/disassembly.h"
#include "devices/disk_cache.h"
#include "devices/llvm_line_table.h"
#include "devices/nvrtc.h"
#include "devices/object_compiler.h"
#include "devices/registry.h"

namespace tr {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string first_line(const std::string& command) {
  std::string out;
  run_command(command, out);
  return out.substr(0, out.find('\n'));
}

// Runs `command` (its stdout into a file) on `bytes` written to a file, and returns the listing.
std::string listing_of(const std::string& bytes, const std::string& command) {
  TempDir dir;
  const std::string object = dir.path() + "/object", listing = dir.path() + "/listing";
  std::ofstream(object, std::ios::binary) << bytes;
  std::string log;
  if (run_command(fmt::format("{} '{}' > '{}'", command, object, listing), log, dir.path()) != 0)
    fail("compile", "`{}` failed: {}", command, log);
  return read_file(listing);
}

// The kernel's own functions (a compiler's clones of it too: r_4.part.0), without the entry or the
// object's startup code.
std::vector<AsmInstruction> kernel_functions(std::vector<AsmInstruction> all, const std::string& kernel) {
  std::erase_if(all, [&](const AsmInstruction& i) { return i.function != kernel && !i.function.starts_with(kernel + "."); });
  return all;
}

// The plain listing, with the lined one's lines where it holds the same instructions.
void take_lines(MachineCode& m, const std::vector<AsmInstruction>& lined, const std::string& how) {
  if (!same_code(m.instructions, lined)) {
    m.lines = fmt::format("no source lines: {} made other instructions than the code shown", how);
    return;
  }
  for (size_t i = 0; i < lined.size(); i++) m.instructions[i].line = lined[i].line;
  const bool any = std::any_of(lined.begin(), lined.end(), [](const AsmInstruction& i) { return i.line > 0; });
  m.lines = any ? fmt::format("source lines from {}, which made the same instructions at the same addresses", how)
                : fmt::format("no source lines: the line table of {} names none", how);
}

// What the CPU and LLVM devices ran: their compiler's object under the key they cached it with. Its lines
// come from `lined` (the text, or the text with a line table) compiled with -g added: `how`.
MachineCode shared_object_code(const ObjectCompiler& cc, const std::string& text, const std::string& lined, std::string_view how,
                               const std::string& kernel, std::string_view device) {
  if (!on_path("objdump")) return {.absent = "objdump is not on PATH (it comes with GNU binutils)"};
  const auto listing = [&](const std::string& t, std::string_view extra, bool lines, bool& cached) {
    const std::string object = cc.object(t, extra, cached);
    const std::string command = lines ? "objdump -d -l --no-show-raw-insn" : "objdump -d --no-show-raw-insn";
    return kernel_functions(parse_objdump(listing_of(cached_bytes(object), command), cc.file), kernel);
  };
  bool cached = false, lined_cached = false;
  MachineCode m{.instructions = listing(text, "", false, cached), .numbered = text};
  m.origin = fmt::format("{} of the object that `{} {}` made, as the {} device compiles this source{}", first_line("objdump --version"),
                         cc.program, cc.flags, device,
                         cached ? " (the copy in its disk cache)" : " (compiled now with the same compiler and flags: the disk cache did not hold it)");
  take_lines(m, listing(lined, "-g", true, lined_cached), std::string(how));
  return m;
}

MachineCode c_code(const UOpProgram& program, const std::string& source) {
  static const ObjectCompiler cc = c_compiler();
  const std::string text = c_object_text(program, source);
  return shared_object_code(cc, text, text, "the same compile with -g added", program.name, "CPU");
}

MachineCode llvm_code(const UOpProgram& program, const std::string& source) {
  static const LlvmCompiler clang = llvm_compiler();
  const std::string text = llvm_object_text(clang, program, source);
  return shared_object_code(
      clang.cc, text, with_line_table(text),
      clang.typed_pointers ? "the same IR, spelled with typed pointers as this clang reads it, with a debug location on each "
                             "instruction naming its line, compiled with -g added"
                           : "the same IR with a debug location on each instruction naming its line, compiled with -g added",
      program.name, "LLVM");
}

// A cubin's SASS: nvdisasm gives each instruction its line where the cubin has line info; cuobjdump
// gives none.
struct SassTool {
  std::string path;
  bool lines = false;
};

std::optional<SassTool> sass_tool() {
  if (const auto nvdisasm = cuda_tool("nvdisasm")) return SassTool{*nvdisasm, true};
  if (const auto cuobjdump = cuda_tool("cuobjdump")) return SassTool{*cuobjdump, false};
  return std::nullopt;
}

std::string no_sass_tool() {
  return fmt::format("no SASS: neither nvdisasm nor cuobjdump (the CUDA toolkit's disassemblers) is in {}", cuda_tool_places());
}

// Without the NOPs that pad each kernel's end to an alignment: no thread reaches them.
std::vector<AsmInstruction> sass(const SassTool& t, const std::string& cubin, bool lines) {
  const std::string command = t.lines ? fmt::format("'{}' -c{}", t.path, lines ? " -g" : "") : fmt::format("'{}' -sass", t.path);
  std::vector<AsmInstruction> code = parse_nvdisasm(listing_of(cubin, command));
  std::vector<AsmInstruction> out;
  for (size_t i = 0; i < code.size(); i++) {
    const bool padding = code[i].text == "NOP" && std::all_of(code.begin() + static_cast<long>(i), code.end(), [&](const AsmInstruction& n) {
      return n.function != code[i].function || n.text == "NOP";
    });
    if (!padding) out.push_back(code[i]);
  }
  return out;
}

// "nvdisasm V13.5.37": a CUDA toolkit program with the version its --version gives
std::string toolkit_version(const std::string& path) {
  const std::string release = first_line(fmt::format("'{}' --version | grep -o 'V[0-9][0-9.]*' | head -1", path));
  return fmt::format("{} {}", path.substr(path.rfind('/') + 1), release);
}

// A nominal sm_90 (the GPU the CUDA and PTX backends render for where none opens) or the CUDA device's.
std::pair<std::string, std::string> cuda_arch() {
  const std::string why = device_status("CUDA");
  if (!why.empty()) return {"sm_90", fmt::format("a nominal sm_90 (the CUDA device does not open here: {})", why)};
  const std::string arch = cuda_compile_arch();
  return {arch, fmt::format("{}, the CUDA device's", arch)};
}

MachineCode cuda_code(const UOpProgram&, const std::string& source) {
  const std::optional<SassTool> tool = sass_tool();
  if (!tool) return {.absent = no_sass_tool()};
  const auto [arch, whose] = cuda_arch();
  if (!arch.starts_with("sm_"))
    return {.absent = fmt::format("no SASS: the CUDA device hands the driver PTX for {}, which it compiles as it loads it "
                                  "and keeps to itself", arch)};
  std::string version;
  try {
    version = Nvrtc::get().version();
  } catch (const Error& e) {
    if (is_interrupt(e)) throw;
    return {.absent = fmt::format("no SASS: {}", e.what())};
  }
  MachineCode m{.instructions = sass(*tool, Nvrtc::get().compile(source, arch), false), .numbered = source};
  m.origin = fmt::format("{} of the cubin that NVRTC {} made for {} from this source, compiled again here with the options the "
                         "CUDA device compiles with (not read from its cache)", toolkit_version(tool->path), version, whose);
  if (!tool->lines) {
    m.lines = "no source lines: cuobjdump prints none (nvdisasm does)";
    return m;
  }
  take_lines(m, sass(*tool, Nvrtc::get().compile(source, arch, {"-lineinfo"}), true), "the same compile with -lineinfo added");
  return m;
}

MachineCode ptx_code(const UOpProgram&, const std::string& source) {
  const std::optional<SassTool> tool = sass_tool();
  if (!tool) return {.absent = no_sass_tool()};
  const std::optional<std::string> ptxas = cuda_tool("ptxas");
  if (!ptxas) return {.absent = fmt::format("no SASS: ptxas (the CUDA toolkit's PTX assembler) is not in {}", cuda_tool_places())};
  TempDir dir;
  std::ofstream(dir.path() + "/kernel.ptx") << source;
  std::string log;
  if (run_command(fmt::format("'{0}' --gpu-name sm_90 '{1}/kernel.ptx' -o '{1}/kernel.cubin'", *ptxas, dir.path()), log, dir.path()) != 0)
    fail("compile", "ptxas failed:\n{}", log);
  MachineCode m{.instructions = sass(*tool, read_file(dir.path() + "/kernel.cubin"), false)};
  m.origin = fmt::format("{} of the cubin that {} made for sm_90; the NV device's driver assembles the same PTX itself as it "
                         "loads it, with the assembler of its own version", toolkit_version(tool->path), toolkit_version(*ptxas));
  m.lines = "no source lines: the PTX renderer writes no .loc directives";
  return m;
}

Disassembler none(std::string why) {
  return [why = std::move(why)](const UOpProgram&, const std::string&) { return MachineCode{.absent = why}; };
}

}  // namespace

void register_disassemblers() {
  register_disassembler("c", c_code);
  register_disassembler("llvm", llvm_code);
  register_disassembler("cuda", cuda_code);
  register_disassembler("ptx", ptx_code);
  const std::string driver = "driver compiles the source as the program is built, into a binary of its own that tinyrepl does not read back";
  register_disassembler("opencl", none("no machine code: the OpenCL " + driver));
  register_disassembler("qcom", none("no machine code: QCOM is OpenCL on Adreno GPUs, whose " + driver));
  register_disassembler("metal", none("no machine code: Metal compiles inside Apple's framework, on macOS only, and gives back no GPU code"));
  register_disassembler("hip", none("no machine code: no AMD device runs HIP here, and tinyrepl has no AMD compiler to make its code"));
  register_disassembler("wgsl", none("no machine code: wgpu-native compiles WGSL for the GPU's own API inside it and gives none of that back"));
}

}  // namespace tr
