#pragma once
// A kernel compiled into a shared object whose entry `tinyrepl_entry(void** bufs, int core_id)`
// runs one core's share of the work; where the cores split a reduce, they run at once and meet at a
// barrier before combining their partial results. The CPU (C) and LLVM devices both compile to this; it is
// loaded with dlopen and run over a thread pool, once per core id.
#include <memory>
#include <string>

#include "core/runtime/device.h"
#include "devices/thread_pool.h"

namespace tr {

// The object compiled from `program`; each launch gives it the memory its cores share (core_locals)
// and their barrier. Throws tr::Error("compile") when the object cannot be loaded or has no entry.
std::unique_ptr<Program> load_shared_object(const std::string& path, ThreadPool& pool, const UOpProgram& program);

// The shared object at path, loaded (to be closed with dlclose), and its `tinyrepl_entry`; throws
// tr::Error("compile") when either fails.
struct LoadedEntry {
  void* lib;
  void* entry;
};
LoadedEntry load_entry(const std::string& path);

}  // namespace tr
