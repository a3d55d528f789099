#pragma once
// What the LLVM device needs of the LLVM IR renderer beyond the backend table's "llvm" text.
#include <string>

#include "core/ir/uops.h"

namespace tr {

// The same IR spelled with typed pointers (`float*`, with bitcasts) instead of `ptr`: clang before
// 15 reads opaque pointers only as an experiment, and its loop-access analysis crashes on them.
std::string render_llvm_typed_pointers(const UOpProgram& p);
// How a buffer of t is laid out in memory: "float", "i8" for bool.
std::string llvm_memory_type(DType t);

}  // namespace tr
