#pragma once
// A compiler of a kernel's text into a shared object, with the flags its device compiles with: the CPU
// device's C compiler and the LLVM device's clang. The device and :asm both compile through it, so the
// object that :asm disassembles is the one the device ran, found in the disk cache under the same key.
#include <string>
#include <string_view>

#include "core/ir/uops.h"

namespace tr {

struct ObjectCompiler {
  std::string program;  // the compiler run: "cc", "clang"
  std::string version;  // the first line of its --version
  std::string flags;    // as the device compiles
  std::string file;     // the name the text is written under: "kernel.c", "kernel.ll"
  std::string libs;     // linked after the text: "-lm"

  // The disk cache's key of the object of `text` compiled with `extra` flags after the device's.
  std::string key(const std::string& text, std::string_view extra = "") const;
  // Compiles the text inside dir and returns the object's path; throws tr::Error("compile") with the
  // compiler's output and the text when it fails.
  std::string build(const std::string& dir, const std::string& text, std::string_view extra = "") const;
  // The cached object (built when absent); `cached` tells which.
  std::string object(const std::string& text, std::string_view extra, bool& cached) const;
};

// The first line of `program --version`; throws tr::Error("device") saying what needs it when it does
// not run.
std::string compiler_version(const std::string& program, std::string_view needed_for);

// The CPU device's compiler ($CC, else cc) and flags for the host's instruction set, and the text it
// compiles for a program: the C source and the entry that the shared object loader calls.
ObjectCompiler c_compiler();
std::string c_object_text(const UOpProgram& program, const std::string& source);

// The LLVM device's clang ($TINYREPL_CLANG, else clang) and flags, and the text it compiles for a
// program: the IR (spelled with typed pointers for clang before 15) and the entry.
struct LlvmCompiler {
  ObjectCompiler cc;
  bool typed_pointers = false;
};
LlvmCompiler llvm_compiler();
std::string llvm_object_text(const LlvmCompiler& c, const UOpProgram& program, const std::string& source);

}  // namespace tr
