#pragma once
// Renderers: pure functions from UOps to the source text of one backend.
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/target.h"
#include "core/ir/uops.h"
#include "core/render/source_lines.h"

namespace tr {

// Backends every machine can render, in the order the tabs show them: c, llvm, opencl, metal, cuda, ptx, hip, wgsl, qcom.
const std::vector<std::string>& backends();

// The lexical family of a backend's source: C's (C, OpenCL, CUDA, Metal, HIP, and PTX's comments),
// LLVM IR's, or WGSL's.
enum class SourceSyntax : uint8_t { C, LlvmIr, Wgsl };
std::string_view line_comment(SourceSyntax s);  // "// ", "; "

// What the backend table says of each backend, so that no code compares backend names.
struct BackendInfo {
  std::string_view name;    // "c", "opencl", ...
  std::string_view device;  // the kind of device that runs its kernels: "CPU", "OPENCL", "NV", "AMD", ...
  bool gpu = false;         // its kernels launch on a GPU's grid (ids and workgroups), not over a CPU's cores
  SourceSyntax syntax = SourceSyntax::C;
  // A GPU backend's nominal target, for rendering where its device does not open here: warps of 32
  // (AMD's wavefronts of 64; WebGPU names none), 48 KiB of workgroup memory (Metal's 32, AMD's 64,
  // WebGPU's guaranteed 16), 256 threads per workgroup, vectors of 4 where the language moves them whole
  // (OpenCL, CUDA, HIP) or lane by lane in registers (PTX, WGSL), and the matrix units it spells
  // (NVIDIA's for CUDA and PTX, an sm_90's; Apple's for Metal). A CPU backend's is none: the host's CPU serves.
  Target nominal{};
};
// Throws tr::Error("value") for an unknown backend.
const BackendInfo& backend_info(std::string_view backend);
bool has_backend(std::string_view backend);
// Throws tr::Error("value") for an unknown backend, tr::Error("type") for a kernel the language
// cannot express (a float64 in Metal, a vector width it lacks).
std::string render(std::string_view backend, const UOpProgram& program);
// The same text with the UOps that each of its lines spells.
RenderedSource render_lines(std::string_view backend, const UOpProgram& program);
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
