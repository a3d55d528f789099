#pragma once
// Renderers: pure functions from UOps to the source text of one backend.
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/uops.h"

namespace tr {

// Backends every machine can render, in the order the tabs show them: c, llvm, opencl, metal, cuda, ptx, hip, wgsl, qcom.
const std::vector<std::string>& backends();
bool has_backend(std::string_view backend);
// Throws tr::Error("value") for an unknown backend, tr::Error("type") for a kernel the language
// cannot express (a float64 in Metal, a vector width it lacks).
std::string render(std::string_view backend, const UOpProgram& program);
// The matrix units whose steps (WMMA UOps) the backend spells (cuda and ptx: NVIDIA's; metal: Apple's),
// and whether it spells every one of a program's.
const std::vector<MatrixUnit>& spelled_matrix_units(std::string_view backend);
bool spells_matrix_units(std::string_view backend, const UOpProgram& p);

// How the SPECIALs of a GPU kernel launch. With a "lidx" id, "gidx" ids number workgroups and
// dims.global counts workgroups; without one, "gidx" ids number threads of the whole grid and the
// device picks the workgroup size. A "core_id" (a CPU kernel's THREAD dim) counts as a grid id.
bool is_local_id(const UOp& u);
bool has_local_ids(const std::vector<UOp>& uops);

}  // namespace tr
